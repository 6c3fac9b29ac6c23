import { checkContextPolicy } from '../context/check-context-policy.js';
import { checkDataFlowOptions } from '../data-flow/check-data-flow-options.js';
import { InvalidLoopOptionsError } from '../errors/invalid-loop-options-error.js';
import { runOutputOf } from '../output/run-output.js';
import { checkProvenanceOptions } from '../provenance/check-provenance-options.js';
import { sealKeysOf } from '../seal/seal-options.js';
import { stopConditionsOf } from '../step/stop-reached.js';
import type { LoopOptions } from './loop-options.js';
import { activeSet } from './plan-step.js';

/** Rejects option values the loop could only misread (a fractional turn limit, a zero concurrency…). */
export function checkLoopOptions(options: Omit<LoopOptions, 'messages'>): void {
  const { maxTurns, concurrency, toolTimeoutMs } = options;
  if (maxTurns !== undefined && !(Number.isInteger(maxTurns) && maxTurns >= 1)) {
    throw new InvalidLoopOptionsError(
      'maxTurns',
      `got ${String(maxTurns)}; use a whole number of model turns, 1 or more.`,
    );
  }
  if (concurrency !== undefined && !((Number.isInteger(concurrency) && concurrency >= 1) || concurrency === Infinity)) {
    throw new InvalidLoopOptionsError(
      'concurrency',
      `got ${String(concurrency)}; use a whole number, 1 or more (1 runs the calls of a turn one after the other).`,
    );
  }
  if (toolTimeoutMs !== undefined && !(Number.isFinite(toolTimeoutMs) && toolTimeoutMs > 0)) {
    throw new InvalidLoopOptionsError(
      'toolTimeoutMs',
      `got ${String(toolTimeoutMs)}; use a positive number of milliseconds.`,
    );
  }
  const retry = options.retry;
  if (retry !== undefined) {
    if (!(Number.isInteger(retry.attempts) && retry.attempts >= 1)) {
      throw new InvalidLoopOptionsError(
        'retry.attempts',
        `got ${String(retry.attempts)}; use a whole number of requests per turn, 1 or more (1 does not retry).`,
      );
    }
    for (const key of ['baseDelayMs', 'maxDelayMs'] as const) {
      const value = retry[key];
      if (value !== undefined && !(Number.isFinite(value) && value >= 0)) {
        throw new InvalidLoopOptionsError(`retry.${key}`, `got ${String(value)}; use 0 or more milliseconds.`);
      }
    }
  }
  if (options.confirmation !== undefined && options.confirmation !== 'refuse' && options.confirmation !== 'pause') {
    throw new InvalidLoopOptionsError('confirmation', `got ${String(options.confirmation)}; use "refuse" or "pause".`);
  }
  checkProvenanceOptions(options.provenance);
  checkContextPolicy(options.contextPolicy);
  if (options.seal !== undefined) sealKeysOf(options.seal);
  checkDataFlowOptions(options.dataFlow, options.catalogue, options.provenance);
  checkStepOptions(options);
  // Prepared now (and cached): a schema that cannot describe an answer fails before anything is sent.
  if (options.output !== undefined) {
    const { name } = runOutputOf(options.output).format;
    // Where the answer travels as a tool (see `answerToolRequest`), its name must be free.
    if (options.catalogue.get(name) !== undefined) {
      throw new InvalidLoopOptionsError(
        'output.name',
        `"${name}" is the name of a catalogue tool; give the answer another name (output.name).`,
      );
    }
  }
}

/** The per-step options: what can be checked before the first step is (names against the catalogue). */
function checkStepOptions(options: Omit<LoopOptions, 'messages'>): void {
  if (options.activeTools !== undefined) activeSet(options.catalogue, options.activeTools, 'activeTools');
  stopConditionsOf(options);
  for (const key of ['prepareStep', 'repairToolCall'] as const) {
    const hook: unknown = options[key];
    if (hook !== undefined && typeof hook !== 'function') {
      throw new InvalidLoopOptionsError(key, `got ${typeof hook}; give a function, or leave it out.`);
    }
  }
  const hosted: unknown = options.hostedTools;
  if (
    hosted !== undefined &&
    (!Array.isArray(hosted) || !hosted.every((tool) => (tool as { type?: unknown } | null)?.type === 'hosted'))
  ) {
    throw new InvalidLoopOptionsError('hostedTools', 'give an array of hostedTool(...) / providerTool(...) values.');
  }
}
