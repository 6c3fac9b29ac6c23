/** A decided call as the run tables keep it: what decides whether it may run on resume or recovery. */
export interface DecidedCallRow {
  readonly runId: string;
  readonly turn: number;
  readonly callId: string;
  readonly toolName: string;
  readonly inputDigest: string;
  readonly approved: boolean;
  /** The journal entry that answered it (its result, or its unknown outcome), once there is one. */
  readonly journalSeq: number | null;
}

/** Whom a run belongs to, as the run tables keep it (who may resume or recover it). */
export interface RunOwnerRow {
  readonly runId: string;
  readonly sessionId: string;
  readonly humanId: string;
}

/** The run tables as verification reads them, in the journal's read snapshot. */
export interface RunTables {
  decidedCalls(): Promise<readonly DecidedCallRow[]>;
  runOwners(): Promise<readonly RunOwnerRow[]>;
}

/** A run-table row that the (verified) journal contradicts or does not account for. */
export interface RunTableMismatch {
  /** The journal entry it contradicts, or 0 when no entry accounts for it at all. */
  readonly seq: number;
  readonly message: string;
}

interface Expected {
  readonly row: DecidedCallRow;
  accounted: boolean;
}

/**
 * Checks the run tables against the journal while the journal is walked: the tables are outside the hash
 * chain, but what decides that a call may run is recorded in it. Every decided call must match the entry
 * that decided it (a `decision` with the same tool, arguments and answer; or, for a call the runner started
 * without a decision, its `start`), the entry it points to as its answer must be that call's, and every
 * entry of a run that names a session or human must name the run's. Changing a call's approval, tool or
 * arguments, inventing one, or moving a run to another session is then reported.
 */
export class RunTablesCheck {
  readonly #calls = new Map<string, Expected>();
  readonly #answers = new Map<number, Expected>();
  readonly #owners = new Map<string, RunOwnerRow>();
  #mismatch: RunTableMismatch | undefined;

  static async of(tables: RunTables): Promise<RunTablesCheck> {
    const check = new RunTablesCheck();
    for (const owner of await tables.runOwners()) check.#owners.set(owner.runId, owner);
    for (const row of await tables.decidedCalls()) {
      const expected: Expected = { row, accounted: false };
      check.#calls.set(keyOf(row.runId, row.turn, row.callId), expected);
      if (row.journalSeq !== null) check.#answers.set(row.journalSeq, expected);
    }
    return check;
  }

  /** One verified journal record, in chain order. */
  see(seq: number, record: Readonly<Record<string, unknown>>): void {
    if (this.#mismatch !== undefined) return;
    const { runId, turn, callId, kind } = record;
    const owner = typeof runId === 'string' ? this.#owners.get(runId) : undefined;
    if (owner !== undefined && differs(record.sessionId, owner.sessionId, record.humanId, owner.humanId)) {
      this.#fail(
        seq,
        `run "${owner.runId}" belongs to session "${owner.sessionId}" (human "${owner.humanId}") in the run table, ` +
          `but entry ${seq} of it was written for session "${String(record.sessionId)}" (human "${String(record.humanId)}"): the run was moved to another owner.`,
      );
      return;
    }
    const answered = this.#answers.get(seq);
    if (answered !== undefined) {
      const { row } = answered;
      if (
        (kind !== 'call' && kind !== 'outcome_unknown') ||
        runId !== row.runId ||
        turn !== row.turn ||
        callId !== row.callId ||
        record.inputDigest !== row.inputDigest
      ) {
        this.#fail(seq, `${describe(row)} points to entry ${seq} as its answer, which is not that call's.`);
        return;
      }
    }
    if (typeof runId !== 'string' || typeof turn !== 'number' || typeof callId !== 'string') return;
    const expected = this.#calls.get(keyOf(runId, turn, callId));
    if (expected === undefined || expected.accounted) return;
    const { row } = expected;
    const decides = kind === 'decision' || (kind === 'start' && row.approved);
    if (!decides) return;
    const answer = kind === 'decision' ? record.approved === true : true;
    if (record.toolName !== row.toolName || record.inputDigest !== row.inputDigest || answer !== row.approved) {
      this.#fail(
        seq,
        `${describe(row)} does not match entry ${seq}, which ${kind === 'decision' ? `decided it ${record.approved === true ? 'approved' : 'declined'}` : 'started it'} ` +
          `for tool "${String(record.toolName)}" with argument digest ${String(record.inputDigest)}: the run table was changed.`,
      );
      return;
    }
    expected.accounted = true;
  }

  /** After the walk: the first mismatch, or a decided call no entry accounts for. */
  result(lastSeq: number): RunTableMismatch | undefined {
    if (this.#mismatch !== undefined) return this.#mismatch;
    for (const { row, accounted } of this.#calls.values()) {
      if (!accounted) {
        return { seq: 0, message: `${describe(row)} is in the run table, but no journal entry decided or started it.` };
      }
      if (row.journalSeq !== null && row.journalSeq > lastSeq) {
        return {
          seq: row.journalSeq,
          message: `${describe(row)} points to entry ${row.journalSeq}, past the journal's end.`,
        };
      }
    }
    return undefined;
  }

  #fail(seq: number, message: string): void {
    this.#mismatch = { seq, message };
  }
}

function keyOf(runId: string, turn: number, callId: string): string {
  return `${runId}\u0000${turn}\u0000${callId}`;
}

/** Whether a record names a session or human other than the run's (records that name none say nothing). */
function differs(sessionId: unknown, ownerSession: string, humanId: unknown, ownerHuman: string): boolean {
  return (sessionId !== undefined && sessionId !== ownerSession) || (humanId !== undefined && humanId !== ownerHuman);
}

function describe(row: DecidedCallRow): string {
  return `the ${row.approved ? 'approved' : 'declined'} call "${row.callId}" (turn ${row.turn}) of run "${row.runId}"`;
}
