import { invalid, isObject } from './parse-start.js';

/** One decision as a client sends it. */
export interface DecisionInput {
  readonly callId: string;
  readonly approved: boolean;
  /** The `inputDigest` of the approval the human was shown: required with an approval. */
  readonly inputDigest?: string;
  /** The `taintDigest` the human was shown, when the approval had one. */
  readonly taintDigest?: string;
  /** Passed to the model with a refusal. */
  readonly note?: string;
}

/** `{ decisions: [{ callId, approved, inputDigest, taintDigest?, note? }] }`, checked for shape only. */
export function parseDecisions(body: unknown): DecisionInput[] {
  if (!isObject(body) || !Array.isArray(body.decisions) || body.decisions.length === 0) {
    throw invalid('the body must be { "decisions": [{ "callId", "approved", "inputDigest", "taintDigest"? }] }.');
  }
  const seen = new Set<string>();
  return body.decisions.map((decision, index): DecisionInput => {
    const at = `decisions[${index}]`;
    if (!isObject(decision)) throw invalid(`${at} is not an object.`);
    const { callId, approved, inputDigest, taintDigest, note } = decision;
    if (typeof callId !== 'string' || callId === '') throw invalid(`${at}.callId must be a non-empty string.`);
    if (seen.has(callId)) throw invalid(`call "${callId}" is decided twice.`);
    seen.add(callId);
    if (typeof approved !== 'boolean') throw invalid(`${at}.approved must be true or false.`);
    if (inputDigest !== undefined && typeof inputDigest !== 'string')
      throw invalid(`${at}.inputDigest must be a string.`);
    if (approved && inputDigest === undefined) {
      throw invalid(`${at} approves without "inputDigest": send the digest of the arguments the human was shown.`);
    }
    if (taintDigest !== undefined && typeof taintDigest !== 'string')
      throw invalid(`${at}.taintDigest must be a string.`);
    if (note !== undefined && typeof note !== 'string') throw invalid(`${at}.note must be a string.`);
    return {
      callId,
      approved,
      ...(inputDigest === undefined ? {} : { inputDigest }),
      ...(taintDigest === undefined ? {} : { taintDigest }),
      ...(note === undefined ? {} : { note }),
    };
  });
}
