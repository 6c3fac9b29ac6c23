import type { ToolCallPart } from '@toolcircuit/core';
import type { GeminiFunctionCall } from './google-api.js';
import { googlePartMetadata } from './google-metadata.js';
import { synthesizeToolCallId } from './synthesize-tool-call-id.js';

export interface FunctionCallContext {
  /** Response id, or the request hash when Gemini sent none (see synthesizeToolCallId). */
  readonly idSeed: string;
  /** Position of this call among the turn's calls. */
  readonly ordinal: number;
  readonly thoughtSignature: string | undefined;
  readonly fromProviderName: (name: string) => string;
  readonly restoreInput: (name: string, input: unknown) => unknown;
}

/**
 * One Gemini `functionCall` part → one neutral call. Gemini decodes the arguments itself, so they are
 * never invalid JSON; an absent `args` is a call without arguments (`{}`), anything but an object is
 * reported as an input error so the executor refuses it.
 */
export function parseGoogleFunctionCall(call: GeminiFunctionCall, context: FunctionCallContext): ToolCallPart {
  const providerName = call.name ?? '';
  const args = call.args ?? {};
  const id = call.id ?? synthesizeToolCallId(context.idSeed, context.ordinal, providerName, args);
  const metadata = googlePartMetadata({
    idSynthesized: call.id === undefined,
    ...(context.thoughtSignature === undefined ? {} : { thoughtSignature: context.thoughtSignature }),
  });
  const base = {
    type: 'tool_call' as const,
    id,
    name: providerName === '' ? '' : context.fromProviderName(providerName),
    ...(metadata === undefined ? {} : { providerMetadata: metadata }),
  };
  if (providerName === '') {
    return {
      ...base,
      input: undefined,
      rawInput: JSON.stringify(args),
      inputError: 'Gemini sent a function call without a name.',
    };
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return {
      ...base,
      input: undefined,
      rawInput: JSON.stringify(args),
      inputError: 'Gemini sent function call arguments that are not an object.',
    };
  }
  return { ...base, input: context.restoreInput(base.name, args) };
}
