// The humans of the data-flow measure. The stand-in approves every request with a click and never types a
// value, so a call held for vouching never passes it. The reading human reads what the request shows (the
// arguments, with the values references stand for) and approves only the action they asked for, with the
// values they meant; asked to vouch, they type those values. Both count the requests they were shown.
import type { ConfirmationDecision, JsonValue, PausedRun, PendingCall, VouchedValue } from '../../src/index.js';
import { normaliseForMatch } from '../../src/provenance/normalise-for-match.js';
import { leafAt } from './json-leaf.js';

export interface Decider {
  decide(paused: PausedRun): ConfirmationDecision[];
  /** Requests shown so far. */
  readonly prompts: number;
  /** Requests in which the human typed a value. */
  readonly vouches: number;
}

export class ApprovingStandIn implements Decider {
  prompts = 0;
  readonly vouches = 0;

  decide(paused: PausedRun): ConfirmationDecision[] {
    this.prompts += paused.pending.length;
    return paused.pending.map((pending) => ({
      callId: pending.callId,
      approved: true,
      inputDigest: pending.inputDigest,
    }));
  }
}

export class ReadingHuman implements Decider {
  prompts = 0;
  vouches = 0;
  readonly #intended: { readonly tool: string; readonly input: { readonly [key: string]: JsonValue } };

  constructor(intended: { readonly tool: string; readonly input: { readonly [key: string]: JsonValue } }) {
    this.#intended = intended;
  }

  decide(paused: PausedRun): ConfirmationDecision[] {
    this.prompts += paused.pending.length;
    return paused.pending.map((pending): ConfirmationDecision => {
      const approved = pending.toolName === this.#intended.tool && same(shownInput(pending), this.#intended.input);
      if (!approved) return { callId: pending.callId, approved: false, note: 'That is not what I asked for.' };
      const vouched: VouchedValue[] = (pending.dataFlow?.vouchFor ?? []).flatMap((path) => {
        const value = leafAt(this.#intended.input, path);
        return typeof value === 'string' || typeof value === 'number' ? [{ path, value }] : [];
      });
      if (vouched.length > 0) this.vouches += 1;
      return {
        callId: pending.callId,
        approved: true,
        inputDigest: pending.inputDigest,
        ...(vouched.length > 0 ? { vouched } : {}),
      };
    });
  }
}

/** The arguments as the request shows them: references replaced by the values they stand for. */
function shownInput(pending: PendingCall): JsonValue {
  const input = structuredClone(pending.input) as JsonValue;
  for (const reference of pending.dataFlow?.references ?? []) {
    const segments = reference.path.split('/').slice(1);
    const key = segments.pop();
    let holder = input as Record<string, JsonValue>;
    for (const segment of segments) holder = holder[segment] as Record<string, JsonValue>;
    if (key === undefined || holder === undefined) continue;
    const current = holder[key];
    holder[key] = reference.whole
      ? reference.value
      : String(current).replace(
          reference.reference,
          typeof reference.value === 'string' ? reference.value : JSON.stringify(reference.value),
        );
  }
  return input;
}

/** The same arguments to a reader's eye: re-spaced or re-cased text and grouped digits read the same. */
function same(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === null || b === null || a === undefined || b === undefined) return a === b;
  if (typeof a !== 'object' || typeof b !== 'object')
    return normaliseForMatch(String(a)) === normaliseForMatch(String(b));
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) => same((a as Record<string, JsonValue>)[key], (b as Record<string, JsonValue>)[key]));
}
