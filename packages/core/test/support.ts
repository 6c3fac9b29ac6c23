// Test helpers. Core's tests cannot depend on @toolcircuit/testing (it depends on core), so they carry
// their own minimal scripted model.
import {
  type AssistantContentPart,
  type Model,
  type ModelRequest,
  type ModelTurn,
  type StreamEvent,
  type ToolCallPart,
  turnStreamEvents,
} from '../src/index.js';

export function call(id: string, name: string, input: unknown, extra: Partial<ToolCallPart> = {}): ToolCallPart {
  return { type: 'tool_call', id, name, input, ...extra };
}

export function callsTurn(
  calls: readonly ToolCallPart[],
  stop: ModelTurn['stopReason']['unified'] = 'tool_calls',
): ModelTurn {
  return {
    content: calls,
    stopReason: { unified: stop, raw: stop },
    usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
  };
}

export function textTurn(text: string): ModelTurn {
  return {
    content: [{ type: 'text', text }],
    stopReason: { unified: 'end_turn', raw: 'end_turn' },
    usage: { inputTokens: 20, outputTokens: 7, totalTokens: 27 },
  };
}

export function turnWith(content: readonly AssistantContentPart[]): ModelTurn {
  return { content, stopReason: { unified: 'tool_calls', raw: 'tool_use' }, usage: textTurn('').usage };
}

export interface FakeModel extends Model {
  readonly requests: ModelRequest[];
}

/** Plays the given turns (or computes them from the request); throws when it runs out. */
export function scripted(
  turns: readonly (ModelTurn | ((request: ModelRequest) => ModelTurn | Promise<ModelTurn>))[],
): FakeModel {
  const requests: ModelRequest[] = [];
  return {
    provider: 'test',
    modelId: 'scripted',
    requests,
    async generate(request) {
      requests.push(request);
      const next = turns[requests.length - 1];
      if (next === undefined) throw new Error(`script exhausted at request ${requests.length}`);
      return typeof next === 'function' ? next(request) : next;
    },
  };
}

/** A model that calls the same tool forever. */
export function alwaysCalling(name: string, input: unknown): FakeModel {
  const requests: ModelRequest[] = [];
  return {
    provider: 'test',
    modelId: 'loop-forever',
    requests,
    async generate(request) {
      requests.push(request);
      return callsTurn([call(`c${requests.length}`, name, input)]);
    },
  };
}

export interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** Lets every pending macrotask-free continuation run (a few event-loop turns, no wall-clock wait). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * The same script, also streamed: each turn replayed as the events a streaming adapter would send, with
 * text and argument text split into `fragmentLength`-character deltas. `generate` stays available, so one
 * script can drive `runLoop` and `streamLoop` alike.
 */
export function streaming(
  turns: readonly (ModelTurn | ((request: ModelRequest) => ModelTurn | Promise<ModelTurn>))[],
  fragmentLength = 3,
): FakeModel & { stream(request: ModelRequest): AsyncIterable<StreamEvent> } {
  const model = scripted(turns);
  return {
    ...model,
    async *stream(request) {
      yield* turnStreamEvents(await model.generate(request), { fragmentLength });
    },
  };
}
