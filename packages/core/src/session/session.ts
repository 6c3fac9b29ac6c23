import { type Confirmation, type ConfirmationStore, InMemoryConfirmations, scoped } from './confirm.js';

/**
 * Who the circuit acts for. The application builds it from ITS OWN authentication (a verified token, a
 * server-side login): nothing in a model's output can create, widen or confirm a session. The model only
 * ever proposes calls; this object decides which of them may run.
 */
export interface Session {
  readonly id: string;
  /** The authenticated human; confirmations are theirs and the journal records them. */
  readonly humanId: string;
  /** Exact right names. There are no wildcards: a right not listed here is not held. */
  readonly rights: ReadonlySet<string>;
  readonly confirmations: ConfirmationStore;
}

export interface SessionInit {
  readonly id: string;
  readonly humanId: string;
  readonly rights?: Iterable<string>;
  /**
   * A store of your own (e.g. database-backed, possibly shared by many sessions), or confirmations to start
   * this session's own in-memory store with: those that name no human are bound to `humanId`, for every run
   * of this session (the store is this session's alone).
   */
  readonly confirmations?: ConfirmationStore | Iterable<Confirmation>;
}

/** A frozen session; `rights` is copied so later changes to the caller's array cannot widen it. */
export function createSession(init: SessionInit): Session {
  const confirmations =
    init.confirmations !== undefined && isStore(init.confirmations)
      ? init.confirmations
      : new InMemoryConfirmations(ownConfirmations(init.confirmations ?? [], init.humanId));
  return Object.freeze({
    id: init.id,
    humanId: init.humanId,
    rights: new Set(init.rights ?? []),
    confirmations,
  });
}

function* ownConfirmations(list: Iterable<Confirmation>, humanId: string): Iterable<Confirmation> {
  for (const confirmation of list) {
    yield confirmation.humanId === undefined ? scoped(confirmation, { humanId, anyRun: true }) : confirmation;
  }
}

function isStore(value: ConfirmationStore | Iterable<Confirmation>): value is ConfirmationStore {
  return typeof (value as Partial<ConfirmationStore>).consume === 'function';
}
