import { InvalidLoopOptionsError } from '../errors/invalid-loop-options-error.js';
import type { ProvenanceOptions } from './provenance-options.js';

const TRUST = new Set(['trusted', 'untrusted']);

/** Rejects provenance settings the loop could only misread: a misspelt trust would silently trust a tool. */
export function checkProvenanceOptions(options: ProvenanceOptions | false | undefined): void {
  if (options === undefined || options === false) return;
  if (options.defaultOutputTrust !== undefined && !TRUST.has(options.defaultOutputTrust)) {
    throw new InvalidLoopOptionsError(
      'provenance.defaultOutputTrust',
      `got ${String(options.defaultOutputTrust)}; use "trusted" or "untrusted".`,
    );
  }
  for (const [name, trust] of Object.entries(options.outputTrust ?? {})) {
    if (!TRUST.has(trust)) {
      throw new InvalidLoopOptionsError(
        'provenance.outputTrust',
        `got ${String(trust)} for tool "${name}"; use "trusted" or "untrusted".`,
      );
    }
  }
  if (options.policy !== undefined && typeof options.policy !== 'function') {
    throw new InvalidLoopOptionsError('provenance.policy', 'use a function (request) => "pause" | "refuse" | "allow".');
  }
  const min = options.minVerbatimLength;
  if (min !== undefined && !(Number.isInteger(min) && min >= 1)) {
    throw new InvalidLoopOptionsError(
      'provenance.minVerbatimLength',
      `got ${String(min)}; use a whole number, 1 or more.`,
    );
  }
}
