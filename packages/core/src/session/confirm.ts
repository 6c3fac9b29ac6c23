import { UnboundConfirmationError } from '../errors/unbound-confirmation-error.js';
import { jsonDigest } from '../json/canonical-json.js';

/**
 * A human's "yes" to one call: this tool with exactly these arguments, by this human, for this run.
 * `inputDigest` is the SHA-256 of the input's canonical JSON, so a confirmation of `{ amount: 10 }` never
 * covers `{ amount: 1000 }`.
 *
 * The executor asks a store for a confirmation naming all of these fields, the run's `humanId` and `runId`
 * included; a stored confirmation matches when every field it names is equal, and one without `runId`
 * matches every run of its human (a pre-approval that says so).
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
  /**
   * The human who gave it (the session's `humanId`): only calls made for that human may use it, so a store
   * shared by several sessions never lets one human's approval run another's call. Stores refuse a grant
   * without it ({@link UnboundConfirmationError}); only `createSession`'s own list binds it for you.
   */
  readonly humanId?: string;
  /**
   * The run it was given for: only that run may use it. Absent on a stored confirmation: every run of its
   * human may (a pre-approval granted with `{ anyRun: true }`). Always present when the executor asks.
   */
  readonly runId?: string;
}

/**
 * Whose confirmation it is and which runs it serves: one run (the default of every approval the circuit
 * grants), or every run of that human, which a pre-approval must say explicitly.
 */
export type ConfirmationScope =
  | { readonly humanId: string; readonly runId: string }
  | { readonly humanId: string; readonly anyRun: true };

/**
 * Where confirmations live. Both methods may be async so an application can keep them in its own
 * database; `consume` must be atomic there, because a confirmation is single-use: one "yes", one run.
 *
 * One store may serve many sessions: `consume` is asked for a confirmation naming the call's human and
 * run, and must match those fields like the others (see {@link Confirmation}), or one human's approval
 * would serve another's call.
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

/**
 * A confirmation for this tool and these exact arguments, by `scope.humanId`, for one run
 * (`{ humanId, runId }`) or every run of that human (`{ humanId, anyRun: true }`). Without a scope it names
 * no human, which only `createSession`'s own list of confirmations accepts (binding it to the session's
 * human); a store refuses it.
 */
export function confirmationFor(toolName: string, input: unknown, scope?: ConfirmationScope): Confirmation {
  const confirmation: Confirmation = { toolName, inputDigest: argumentDigest(input) };
  return scope === undefined ? confirmation : scoped(confirmation, scope);
}

/** The same confirmation, given by this human for this run (or every run, with `anyRun`). */
export function scoped(confirmation: Confirmation, scope: ConfirmationScope): Confirmation {
  const { runId: _runId, humanId: _humanId, ...rest } = confirmation;
  return 'runId' in scope
    ? { ...rest, humanId: scope.humanId, runId: scope.runId }
    : { ...rest, humanId: scope.humanId };
}

/**
 * The in-process confirmation store. Granting the same call twice allows it to run twice: each grant is
 * one use. Every grant must name its human (see {@link Confirmation.humanId}).
 */
export class InMemoryConfirmations implements ConfirmationStore {
  readonly #uses = new Map<string, number>();
  /** Resume tokens spent here: one short string per resumed pause, kept for the store's life. */
  readonly #spentTokens = new Set<string>();

  constructor(initial: Iterable<Confirmation> = []) {
    for (const confirmation of initial) this.grant(confirmation);
  }

  /** Throws {@link UnboundConfirmationError} for a confirmation that names no human. */
  grant(confirmation: Confirmation): void {
    if (typeof confirmation.humanId !== 'string') throw new UnboundConfirmationError(confirmation.toolName);
    const key = keyOf(confirmation, confirmation.runId);
    this.#uses.set(key, (this.#uses.get(key) ?? 0) + 1);
  }

  /** Shorthand for the application: this human confirmed this tool with these arguments, for `scope`. */
  confirm(toolName: string, input: unknown, scope: ConfirmationScope): Confirmation {
    const confirmation = confirmationFor(toolName, input, scope);
    this.grant(confirmation);
    return confirmation;
  }

  /**
   * Uses one confirmation for this call: the asked run's own first, else one for every run of its human. A
   * question that names no human matches nothing.
   */
  consume(confirmation: Confirmation): boolean {
    if (typeof confirmation.humanId !== 'string') return false;
    if (confirmation.runId !== undefined && this.#take(keyOf(confirmation, confirmation.runId))) return true;
    return this.#take(keyOf(confirmation, undefined));
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
      const [toolName = '', inputDigest = '', informedOf = '', humanId = '', runId = ''] = key.split('\u0000');
      const confirmation: Confirmation = {
        toolName,
        inputDigest,
        ...(informedOf === '' ? {} : { informedOf }),
        humanId,
        ...(runId === '' ? {} : { runId }),
      };
      for (let use = 0; use < uses; use += 1) list.push(confirmation);
    }
    return list;
  }

  #take(key: string): boolean {
    const uses = this.#uses.get(key) ?? 0;
    if (uses === 0) return false;
    if (uses === 1) this.#uses.delete(key);
    else this.#uses.set(key, uses - 1);
    return true;
  }
}

function keyOf(confirmation: Confirmation, runId: string | undefined): string {
  const { toolName, inputDigest, informedOf = '', humanId = '' } = confirmation;
  return `${toolName}\u0000${inputDigest}\u0000${informedOf}\u0000${humanId}\u0000${runId ?? ''}`;
}
