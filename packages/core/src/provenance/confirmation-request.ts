import type { JsonValue } from '../json/json.js';
import { type Confirmation, scoped } from '../session/confirm.js';
import type { TaintSourceRef } from './taint-source.js';

/** An argument value found in untrusted output, and the calls whose output holds it. */
export interface FlaggedArgument {
  /** JSON Pointer into the input (e.g. `/recipient`, `/items/0/iban`); for `joined`, the pieces' container. */
  readonly path: string;
  /** The value as the model wrote it (for `joined`, its pieces run together). */
  readonly value: string | number;
  readonly foundIn: readonly TaintSourceRef[];
  /**
   * How it was found, when not verbatim: `normalised` once both texts were re-cased, re-spaced and stripped
   * of separators, invisible and look-alike characters (the model rewrote it); `decoded` once the value, or
   * a source, was decoded from base64, URL or hex encoding; `joined` when the value is split over several
   * arguments (`parts`) whose pieces are found together. Absent: found verbatim.
   */
  readonly match?: 'normalised' | 'decoded' | 'joined';
  /** For a `decoded` value: the text it decodes to, as found in the source. */
  readonly decoded?: string;
  /** For `joined`: the paths of the pieces, in order. */
  readonly parts?: readonly string[];
}

/**
 * What the human is shown before a gated call runs: the exact arguments, why it is gated, which untrusted
 * sources are in the context, and which argument values were copied from them. Plain JSON data.
 */
export interface ConfirmationRequest {
  readonly callId: string;
  readonly toolName: string;
  readonly turn: number;
  /** The human the call is made for: the only one whose confirmation counts. */
  readonly humanId: string;
  /** The run the call belongs to: the confirmation this request asks for serves this run only. */
  readonly runId: string;
  readonly input: JsonValue;
  readonly inputDigest: string;
  readonly gatedBecause: 'irreversible' | 'sensitive';
  readonly untrustedSources: readonly TaintSourceRef[];
  readonly flaggedArguments: readonly FlaggedArgument[];
  /**
   * SHA-256 over the untrusted sources above. A confirmation counts for this call only if it names this
   * digest: it was given once these sources had arrived, by someone shown them.
   */
  readonly taintDigest: string;
}

/**
 * The confirmation that answers a request: these exact arguments, informed of these untrusted sources, by
 * the request's human, for its run. (`{ anyRun: true }` lets every run of that human use it; the taint
 * digest still ties it to these exact sources.)
 */
export function informedConfirmation(
  request: ConfirmationRequest,
  options: { readonly anyRun?: true } = {},
): Confirmation {
  const confirmation = {
    toolName: request.toolName,
    inputDigest: request.inputDigest,
    informedOf: request.taintDigest,
  };
  return options.anyRun === true
    ? scoped(confirmation, { humanId: request.humanId, anyRun: true })
    : scoped(confirmation, { humanId: request.humanId, runId: request.runId });
}
