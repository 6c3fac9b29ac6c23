import { jsonDigest } from '../json/canonical-json.js';

/**
 * A human's "yes" to one call: this tool with exactly these arguments. `inputDigest` is the SHA-256 of the
 * input's canonical JSON, so a confirmation of `{ amount: 10 }` never covers `{ amount: 1000 }`.
 */
export interface Confirmation {
  readonly toolName: string;
  readonly inputDigest: string;
  /**
   * The taint digest of the untrusted sources the human was shown (`ConfirmationRequest.taintDigest`). Once
   * untrusted output is in a run, only a confirmation naming the current digest counts: one given before
   * that output arrived, or without seeing it, names none. A store must match it like the other fields.
   */
  readonly informedOf?: string;
}

/**
 * Where a session's confirmations live. Both methods may be async so an application can keep them in its
 * own database; `consume` must be atomic there, because a confirmation is single-use: one "yes", one run.
 */
export interface ConfirmationStore {
  grant(confirmation: Confirmation): void | Promise<void>;
  /** Removes one matching confirmation and says whether there was one. */
  consume(confirmation: Confirmation): boolean | Promise<boolean>;
  /**
   * Records a paused run's resume token and says whether it was new (see `ResumeTokenStore`): `resumeLoop`
   * spends it here, so a paused run is resumed once. A store without it cannot resume a paused run.
   */
  spendResumeToken?(token: string): boolean | Promise<boolean>;
}

/** The argument digest of an input: what a confirmation and a journal entry refer to. */
export function argumentDigest(input: unknown): string {
  return jsonDigest(input);
}

/** A confirmation for this tool and these exact arguments. */
export function confirmationFor(toolName: string, input: unknown): Confirmation {
  return { toolName, inputDigest: argumentDigest(input) };
}

/**
 * The in-process confirmation store. Granting the same call twice allows it to run twice: each grant is
 * one use.
 */
export class InMemoryConfirmations implements ConfirmationStore {
  readonly #uses = new Map<string, number>();
  /** Resume tokens spent here: one short string per resumed pause, kept for the store's life. */
  readonly #spentTokens = new Set<string>();

  constructor(initial: Iterable<Confirmation> = []) {
    for (const confirmation of initial) this.grant(confirmation);
  }

  grant(confirmation: Confirmation): void {
    const key = keyOf(confirmation);
    this.#uses.set(key, (this.#uses.get(key) ?? 0) + 1);
  }

  /** Shorthand for the application: the human confirmed this tool with these arguments. */
  confirm(toolName: string, input: unknown): Confirmation {
    const confirmation = confirmationFor(toolName, input);
    this.grant(confirmation);
    return confirmation;
  }

  consume(confirmation: Confirmation): boolean {
    const key = keyOf(confirmation);
    const uses = this.#uses.get(key) ?? 0;
    if (uses === 0) return false;
    if (uses === 1) this.#uses.delete(key);
    else this.#uses.set(key, uses - 1);
    return true;
  }

  spendResumeToken(token: string): boolean {
    if (this.#spentTokens.has(token)) return false;
    this.#spentTokens.add(token);
    return true;
  }

  /** Confirmations not used yet, one entry per remaining use (plain data, e.g. to persist them). */
  outstanding(): Confirmation[] {
    const list: Confirmation[] = [];
    for (const [key, uses] of this.#uses) {
      const [toolName = '', inputDigest = '', informedOf = ''] = key.split('\u0000');
      const confirmation: Confirmation =
        informedOf === '' ? { toolName, inputDigest } : { toolName, inputDigest, informedOf };
      for (let use = 0; use < uses; use += 1) list.push(confirmation);
    }
    return list;
  }
}

function keyOf(confirmation: Confirmation): string {
  return `${confirmation.toolName}\u0000${confirmation.inputDigest}\u0000${confirmation.informedOf ?? ''}`;
}
