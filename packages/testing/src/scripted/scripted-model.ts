import {
  type AssistantContentPart,
  type Model,
  type ModelRequest,
  type ModelTurn,
  ProviderError,
  type ToolCallPart,
  ToolcircuitError,
  type Usage,
} from '@toolcircuit/core';
import { deepCopy } from './deep-copy.js';

/** A turn to play back, or a function computing it from the request (to assert on it or react to it). */
export type ScriptedStep = ModelTurn | ((request: ModelRequest, index: number) => ModelTurn | Promise<ModelTurn>);

/** A request as the scripted model saw it: a deep copy, without the (uncopyable) abort signal. */
export type RecordedModelRequest = Omit<ModelRequest, 'signal'>;

export interface ScriptedModelOptions {
  readonly provider?: string;
  readonly modelId?: string;
}

/** The script has no turn left for a request: the code under test asked the model more often than expected. */
export class ScriptExhaustedError extends ToolcircuitError {
  readonly kind = 'configuration' as const;
  readonly code = 'script_exhausted' as const;
  readonly requestNumber: number;

  constructor(requestNumber: number, scriptLength: number, request: ModelRequest) {
    const last = request.messages.at(-1);
    const tail = last === undefined ? 'no messages' : `a ${last.role} message: ${clip(JSON.stringify(last), 300)}`;
    super(
      `The scripted model ran out of turns: request #${requestNumber} arrived but the script has only ` +
        `${scriptLength} turn${scriptLength === 1 ? '' : 's'}. The request ended with ${tail}. Add a turn to the script ` +
        '(usually a final text turn) or find out why the loop asked again.',
    );
    this.requestNumber = requestNumber;
  }
}

/**
 * A {@link Model} that plays back neutral turns in order and records every request it was sent. Recorded
 * requests and returned turns are deep copies, so later changes by the loop (or by a test) to the shared
 * objects cannot rewrite what was recorded. An aborted signal is honoured as an adapter would: with a
 * `ProviderError` of code `aborted`.
 */
export class ScriptedModel implements Model {
  readonly provider: string;
  readonly modelId: string;
  readonly #steps: readonly ScriptedStep[];
  readonly #requests: RecordedModelRequest[] = [];

  constructor(steps: readonly ScriptedStep[], options: ScriptedModelOptions = {}) {
    this.#steps = [...steps];
    this.provider = options.provider ?? 'scripted';
    this.modelId = options.modelId ?? 'scripted-model';
  }

  /** Every request received, in order (including one that exhausted the script). */
  get requests(): readonly RecordedModelRequest[] {
    return [...this.#requests];
  }

  /** Turns not played yet. */
  get remaining(): number {
    return Math.max(0, this.#steps.length - this.#requests.length);
  }

  async generate(request: ModelRequest): Promise<ModelTurn> {
    const index = this.recordRequest(request);
    const step = this.#steps[index];
    if (step === undefined) throw new ScriptExhaustedError(index + 1, this.#steps.length, request);
    const turn = typeof step === 'function' ? await step(request, index) : step;
    return deepCopy(turn);
  }

  /**
   * Records a deep copy of the request and honours an aborted signal as an adapter would (a `ProviderError`
   * of code `aborted`); returns the request's position in the script. For variants that answer differently.
   */
  protected recordRequest(request: ModelRequest): number {
    const { signal, ...rest } = request;
    const index = this.#requests.length;
    this.#requests.push(deepCopy(rest));
    if (signal?.aborted === true) throw abortedError(this.provider, signal.reason);
    return index;
  }
}

/** What an adapter throws (or streams as an `error` event) when its request was aborted. */
export function abortedError(provider: string, reason: unknown): ProviderError {
  return new ProviderError({
    provider,
    code: 'aborted',
    message: 'the request was aborted',
    retryable: false,
    cause: reason,
  });
}

export function createScriptedModel(steps: readonly ScriptedStep[], options: ScriptedModelOptions = {}): ScriptedModel {
  return new ScriptedModel(steps, options);
}

const scriptedUsage: Usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

/** A final answer: text only, stop reason `end_turn`. */
export function textTurn(text: string, usage: Usage = scriptedUsage): ModelTurn {
  return { content: [{ type: 'text', text }], stopReason: { unified: 'end_turn', raw: 'end_turn' }, usage };
}

export interface ScriptedCall {
  /** Defaults to `call_<position>` (1-based) within the turn. */
  readonly id?: string;
  readonly name: string;
  readonly input: unknown;
}

/** A turn that requests tools, optionally after some text; stop reason `tool_calls`. */
export function toolCallsTurn(
  calls: readonly ScriptedCall[],
  options: { readonly text?: string; readonly usage?: Usage } = {},
): ModelTurn {
  const parts: AssistantContentPart[] = options.text === undefined ? [] : [{ type: 'text', text: options.text }];
  for (const [index, call] of calls.entries()) {
    const part: ToolCallPart = {
      type: 'tool_call',
      id: call.id ?? `call_${index + 1}`,
      name: call.name,
      input: call.input,
    };
    parts.push(part);
  }
  return {
    content: parts,
    stopReason: { unified: 'tool_calls', raw: 'tool_calls' },
    usage: options.usage ?? scriptedUsage,
  };
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
