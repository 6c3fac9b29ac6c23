import type { CallGateRecord } from './trace-types.js';

type Source = CallGateRecord['untrustedSources'][number];
type Flagged = CallGateRecord['flaggedArguments'][number];

/**
 * A call's gate as read from a file (a trace record's `gate`, or a journal entry's `provenance.gate` with the
 * entry's input to read the flagged values from), checked field by field: a file may be damaged or hostile,
 * and the page must neither throw on it nor show half of it as if it were whole. `undefined`: no usable gate.
 */
export function gateOf(value: unknown, input?: unknown): CallGateRecord | undefined {
  if (!isObject(value)) return undefined;
  const { gatedBecause, policy, taintDigest, untrustedSources, flaggedArguments } = value;
  if (gatedBecause !== 'irreversible' && gatedBecause !== 'sensitive') return undefined;
  if (typeof taintDigest !== 'string' || !Array.isArray(untrustedSources) || !Array.isArray(flaggedArguments)) {
    return undefined;
  }
  const sources = untrustedSources.map(sourceOf);
  const flagged = flaggedArguments.map((item) => flaggedOf(item, input));
  if (sources.some((source) => source === undefined) || flagged.some((item) => item === undefined)) return undefined;
  return {
    gatedBecause,
    ...(policy === 'pause' || policy === 'refuse' || policy === 'allow' ? { policy } : {}),
    taintDigest,
    untrustedSources: sources as Source[],
    flaggedArguments: flagged as Flagged[],
  };
}

function sourceOf(value: unknown): Source | undefined {
  if (!isObject(value)) return undefined;
  const { turn, callId, toolName, outputDigest } = value;
  if (typeof turn !== 'number' || typeof callId !== 'string' || typeof toolName !== 'string') return undefined;
  if (typeof outputDigest !== 'string') return undefined;
  return { turn, callId, toolName, outputDigest };
}

function flaggedOf(value: unknown, input: unknown): Flagged | undefined {
  if (!isObject(value) || typeof value.path !== 'string' || !Array.isArray(value.foundIn)) return undefined;
  const foundIn = value.foundIn.map(sourceOf);
  if (foundIn.some((source) => source === undefined)) return undefined;
  const given = value.value;
  const found = typeof given === 'string' || typeof given === 'number' ? given : scalarAt(input, value.path);
  return { path: value.path, foundIn: foundIn as Source[], ...(found === undefined ? {} : { value: found }) };
}

/** The string or number at a JSON Pointer in the input (a journal keeps the paths only). */
function scalarAt(input: unknown, pointer: string): string | number | undefined {
  if (!pointer.startsWith('/')) return undefined;
  let value: unknown = input;
  for (const part of pointer.slice(1).split('/')) {
    const key = part.replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isObject(value) && !Array.isArray(value)) return undefined;
    if (!Object.hasOwn(value as object, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return typeof value === 'string' || typeof value === 'number' ? value : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
