import { InvalidLoopOptionsError } from '../errors/invalid-loop-options-error.js';
import type { ContextPolicy } from './context-policy.js';

/** Rejects a context policy the circuit could only misread, naming the field and the fix. */
export function checkContextPolicy(policy: ContextPolicy | undefined): void {
  if (policy === undefined) return;
  const field = (name: string) => `contextPolicy.${name}`;
  if (typeof policy !== 'object' || policy === null) {
    throw new InvalidLoopOptionsError(
      'contextPolicy',
      'give an object such as { maxTokens: 100_000 }, or leave it out.',
    );
  }
  const { maxTokens, keepTurns, clearAtLeast } = policy;
  if (!(Number.isInteger(maxTokens) && maxTokens >= 1)) {
    throw new InvalidLoopOptionsError(
      field('maxTokens'),
      `got ${String(maxTokens)}; give the input tokens one request may hold, a whole number (e.g. 100_000).`,
    );
  }
  if (keepTurns !== undefined && !(Number.isInteger(keepTurns) && keepTurns >= 1)) {
    throw new InvalidLoopOptionsError(
      field('keepTurns'),
      `got ${String(keepTurns)}; use a whole number of turns, 1 or more (the last turn's results are always sent).`,
    );
  }
  if (
    clearAtLeast !== undefined &&
    !(Number.isInteger(clearAtLeast) && clearAtLeast >= 0 && clearAtLeast < maxTokens)
  ) {
    throw new InvalidLoopOptionsError(
      field('clearAtLeast'),
      `got ${String(clearAtLeast)}; use a whole number of tokens from 0 to less than maxTokens (${maxTokens}).`,
    );
  }
  const keepTools: unknown = policy.keepTools;
  if (keepTools !== undefined && !(Array.isArray(keepTools) && keepTools.every((name) => typeof name === 'string'))) {
    throw new InvalidLoopOptionsError(field('keepTools'), 'give an array of tool names.');
  }
  for (const key of ['clearToolResults', 'native'] as const) {
    const value: unknown = policy[key];
    if (value !== undefined && typeof value !== 'boolean') {
      throw new InvalidLoopOptionsError(field(key), `got ${typeof value}; use true or false.`);
    }
  }
  for (const key of ['summarise', 'onRequest'] as const) {
    const value: unknown = policy[key];
    if (value !== undefined && typeof value !== 'function') {
      throw new InvalidLoopOptionsError(field(key), `got ${typeof value}; give a function, or leave it out.`);
    }
  }
}
