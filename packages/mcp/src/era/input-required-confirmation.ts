import { randomUUID } from 'node:crypto';
import type {
  CallToolResult,
  InputRequiredResult,
  RequestStateCodec,
  ServerContext,
} from '@modelcontextprotocol/server';
import { inputRequired, inputResponse } from '@modelcontextprotocol/server';
import {
  argumentDigest,
  confirmationFor,
  type ExecutionContext,
  executeCall,
  type Session,
  type ToolCallPart,
} from '@toolcircuit/core';
import { confirmationQuestion } from '../served/confirmation-question.js';
import { toMcpResult } from '../to-mcp-result.js';

/** The key of the confirmation in `inputRequests` / `inputResponses`. */
export const CONFIRM_INPUT_KEY = 'toolcircuit.confirm';
/**
 * `_meta` key a client may put on a `tools/call` to say which untrusted sources its run holds (a taint digest,
 * as core's `ConfirmationRequest.taintDigest`): the question then names it and the answer must too.
 */
export const TAINT_DIGEST_META_KEY = 'io.toolcircuit/taintDigest';
/** `_meta` key of the informed request on the embedded elicitation. */
export const CONFIRMATION_REQUEST_META_KEY = 'io.toolcircuit/confirmationRequest';

/**
 * What the server signs into `requestState` when it asks: the call the human is asked about, whose answer
 * counts, the run the call is journaled under, and a nonce spent when the call runs.
 */
export interface ConfirmationState {
  readonly tool: string;
  readonly inputDigest: string;
  readonly taintDigest?: string;
  readonly humanId: string;
  readonly runId: string;
  readonly nonce: string;
}

/** What the human is shown, in the elicitation's `_meta` (the message says the same in words). */
export interface InformedConfirmationRequest {
  readonly toolName: string;
  readonly input: unknown;
  readonly inputDigest: string;
  readonly taintDigest?: string;
}

/** Nonces of answers already used, each kept until its state would have expired anyway. */
export class SpentConfirmations {
  readonly #spent = new Map<string, number>();
  readonly #ttlMs: number;

  constructor(ttlMs: number) {
    this.#ttlMs = ttlMs;
  }

  /** True the first time a nonce is spent, false on every replay. */
  spend(nonce: string): boolean {
    const now = Date.now();
    for (const [key, expires] of this.#spent) if (expires <= now) this.#spent.delete(key);
    if (this.#spent.has(nonce)) return false;
    this.#spent.set(nonce, now + this.#ttlMs);
    return true;
  }
}

export interface InputRequiredConfirmationOptions {
  readonly codec: RequestStateCodec<ConfirmationState>;
  readonly spent: SpentConfirmations;
}

/**
 * Confirmation on the 2026-07-28 revision, where a server cannot send the client a request: the first round
 * answers `input_required` with the informed request (exact arguments, their digest, the taint digest when
 * the client named one) and a signed `requestState`; the client's retry carries the human's answer, which
 * counts only if it names the same digests, for the same arguments, the same human, once.
 */
export async function confirmByInputRequired(
  ctx: ServerContext,
  call: ToolCallPart,
  session: Session,
  context: ExecutionContext & { readonly runId: string },
  options: InputRequiredConfirmationOptions,
  taintDigest: string | undefined,
): Promise<CallToolResult | InputRequiredResult> {
  const inputDigest = argumentDigest(call.input);
  const state = ctx.mcpReq.requestState<ConfirmationState>();
  if (state === undefined) {
    const runId = context.runId;
    // Journaled as awaiting the human's confirmation, like a paused call.
    await executeCall(call, { ...context, confirmation: 'pause' });
    const informed: InformedConfirmationRequest = {
      toolName: call.name,
      input: call.input,
      inputDigest,
      ...(taintDigest === undefined ? {} : { taintDigest }),
    };
    return inputRequired({
      inputRequests: {
        [CONFIRM_INPUT_KEY]: inputRequired.elicit({
          message: questionOf(informed),
          requestedSchema: schemaOf(informed) as never,
          _meta: { [CONFIRMATION_REQUEST_META_KEY]: informed },
        } as never),
      },
      requestState: await options.codec.mint({
        tool: call.name,
        inputDigest,
        ...(taintDigest === undefined ? {} : { taintDigest }),
        humanId: session.humanId,
        runId,
        nonce: randomUUID(),
      }),
    });
  }
  const retried = { ...context, runId: state.runId };
  const refuse = async (why: string): Promise<CallToolResult> =>
    toMcpResult((await executeCall(call, retried)).result, why);
  // The state is the server's own (signed); these compare it with the retry as it arrived.
  if (state.tool !== call.name || state.inputDigest !== inputDigest) {
    return refuse('The arguments changed after the human was asked; this answer was for other arguments.');
  }
  if (state.humanId !== session.humanId) return refuse('This answer was given for another human.');
  if ((state.taintDigest ?? '') !== (taintDigest ?? '')) {
    return refuse('The untrusted sources changed after the human was asked; ask again.');
  }
  const answer = inputResponse(ctx.mcpReq.inputResponses, CONFIRM_INPUT_KEY);
  if (answer.kind !== 'elicit') return refuse('The retry carried no answer to the confirmation.');
  if (answer.action !== 'accept' || answer.content?.confirm !== true) {
    return refuse(`The human did not confirm this call (${answer.action === 'accept' ? 'no' : answer.action}).`);
  }
  if (
    answer.content.inputDigest !== inputDigest ||
    (state.taintDigest !== undefined && answer.content.taintDigest !== state.taintDigest)
  ) {
    return refuse('The answer names other digests than the call it was asked for; it was not used.');
  }
  if (!options.spent.spend(state.nonce)) return refuse('This confirmation was already used: one yes, one run.');
  await session.confirmations.grant(
    confirmationFor(call.name, call.input, { humanId: session.humanId, runId: state.runId }),
  );
  return toMcpResult((await executeCall(call, retried)).result);
}

function questionOf(informed: InformedConfirmationRequest): string {
  return (
    `${confirmationQuestion(informed.toolName, informed.input)}\n` +
    `Argument digest: ${informed.inputDigest}` +
    (informed.taintDigest === undefined
      ? ''
      : `\nIts run holds untrusted sources (taint digest ${informed.taintDigest}).`)
  );
}

/** Yes/no, and the digests the answer is bound to (prefilled: a form that keeps them answers this call only). */
function schemaOf(informed: InformedConfirmationRequest): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      confirm: {
        type: 'boolean',
        title: 'Run it',
        description: 'Yes runs this call, with exactly these arguments, once.',
      },
      inputDigest: { type: 'string', title: 'Argument digest', default: informed.inputDigest },
      ...(informed.taintDigest === undefined
        ? {}
        : { taintDigest: { type: 'string', title: 'Taint digest', default: informed.taintDigest } }),
    },
    required: ['confirm', 'inputDigest', ...(informed.taintDigest === undefined ? [] : ['taintDigest'])],
  };
}
