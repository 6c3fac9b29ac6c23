import { type Confirmation, type ConfirmationStore, InvalidLoopOptionsError } from '@toolcircuit/core';

/** What the guard asks the connection about a tool. */
export interface PinState {
  /** The tool's pin generation, or `undefined` for a tool that is not from this connection. */
  generation(toolName: string): number | undefined;
  /** True while the tool's definition changed and the application has not accepted the new one. */
  isChanged(toolName: string): boolean;
}

/**
 * A confirmation store that binds each approval to the definition the tool had when it was granted. The
 * executor's fourth check consumes confirmations from it as from any store; for this connection's tools it
 * answers "not confirmed" when the definition changed since (the human approved a different tool), and a
 * change voids every such approval at once. Other tools pass straight through to the inner store.
 *
 * The stamps live in memory: an approval restored from a database in another process is not stamped and
 * therefore not honoured for MCP tools (fail closed: the human is asked again).
 */
export class GuardedConfirmations implements ConfirmationStore {
  readonly #inner: ConfirmationStore;
  readonly #pins: PinState;
  /**
   * key → each outstanding grant: the generation it was given under and the confirmation as granted (so a
   * void spends exactly that one in the inner store, whatever fields it carries).
   */
  readonly #stamps = new Map<string, Stamp[]>();

  constructor(inner: ConfirmationStore, pins: PinState) {
    this.#inner = inner;
    this.#pins = pins;
  }

  async grant(confirmation: Confirmation): Promise<void> {
    await this.#inner.grant(confirmation);
    const generation = this.#pins.generation(confirmation.toolName);
    if (generation === undefined) return;
    const key = keyOf(confirmation);
    this.#stamps.set(key, [...(this.#stamps.get(key) ?? []), { generation, confirmation }]);
  }

  async consume(confirmation: Confirmation): Promise<boolean> {
    const generation = this.#pins.generation(confirmation.toolName);
    if (generation === undefined) return this.#inner.consume(confirmation);
    if (this.#pins.isChanged(confirmation.toolName)) return false;
    // Keyed with `informedOf`: an approval given for other untrusted sources (or none) is not this one, even
    // when the inner store is looser than it should be.
    const key = keyOf(confirmation);
    const stamps = this.#stamps.get(key) ?? [];
    const index = stamps.findIndex(
      (stamp) => stamp.generation === generation && covers(stamp.confirmation, confirmation),
    );
    if (index === -1) return false;
    if (!(await this.#inner.consume(confirmation))) return false;
    stamps.splice(index, 1);
    if (stamps.length === 0) this.#stamps.delete(key);
    return true;
  }

  /** Voids every approval of a tool granted before its current generation; returns how many. */
  async voidBefore(toolName: string, generation: number): Promise<number> {
    let voided = 0;
    for (const [key, stamps] of this.#stamps) {
      if (!key.startsWith(`${toolName}\u0000`)) continue;
      const kept = stamps.filter((stamp) => stamp.generation >= generation);
      for (const stamp of stamps) {
        if (stamp.generation >= generation) continue;
        // Also spend it in the inner store (the very grant: same human, run and taint), so no later reader finds it.
        await Promise.resolve(this.#inner.consume(stamp.confirmation)).catch(() => false);
        voided += 1;
      }
      if (kept.length === 0) this.#stamps.delete(key);
      else this.#stamps.set(key, kept);
    }
    return voided;
  }

  /** Resume tokens are the inner store's to record (see core's `spendResumeToken`). */
  spendResumeToken(token: string): boolean | Promise<boolean> {
    if (this.#inner.spendResumeToken === undefined) {
      throw new InvalidLoopOptionsError(
        'session.confirmations',
        'the store inside guardConfirmations() cannot record resume tokens; give it a spendResumeToken(token) method, or use InMemoryConfirmations.',
      );
    }
    return this.#inner.spendResumeToken(token);
  }
}

interface Stamp {
  readonly generation: number;
  readonly confirmation: Confirmation;
}

function keyOf(confirmation: Confirmation): string {
  return `${confirmation.toolName}\u0000${confirmation.inputDigest}\u0000${confirmation.informedOf ?? ''}`;
}

/** Whether a grant may answer this question: the same human, its run (or any run), the same taint. */
function covers(granted: Confirmation, asked: Confirmation): boolean {
  return (
    granted.humanId === asked.humanId &&
    (granted.runId === undefined || granted.runId === asked.runId) &&
    (granted.informedOf ?? '') === (asked.informedOf ?? '')
  );
}
