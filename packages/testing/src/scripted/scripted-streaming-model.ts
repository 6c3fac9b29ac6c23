import { type ModelRequest, type ModelTurn, type StreamEvent, turnStreamEvents } from '@toolcircuit/core';
import { deepCopy } from './deep-copy.js';
import {
  abortedError,
  ScriptExhaustedError,
  ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedStep,
} from './scripted-model.js';

/**
 * The exact events to stream for one request, for what a whole turn cannot say: a call cut off mid-argument,
 * an `error` event after some text, a stream that ends early. `generate` answers it with the `turn-end`
 * turn, or throws the `error` event's error.
 */
export interface ScriptedEvents {
  readonly events: readonly StreamEvent[];
}

export type ScriptedStreamStep = ScriptedStep | ScriptedEvents;

export interface ScriptedStreamingModelOptions extends ScriptedModelOptions {
  /** Characters per text, reasoning and argument delta when a scripted turn is streamed. Default 8. */
  readonly fragmentLength?: number;
}

/**
 * A {@link ScriptedModel} that also streams, so `streamLoop` and applications see what a streaming adapter
 * produces: each scripted turn as deltas of `fragmentLength` characters, its calls announced, grown and
 * ended, then `turn-end`; or a step's exact events. Like an adapter it never throws from the stream: an
 * aborted signal, an exhausted script or a failing step end it with an `error` event. Requests are recorded
 * for `stream` and `generate` alike, one script position each.
 */
export class ScriptedStreamingModel extends ScriptedModel {
  readonly #steps: readonly ScriptedStreamStep[];
  readonly #fragmentLength: number;

  constructor(steps: readonly ScriptedStreamStep[], options: ScriptedStreamingModelOptions = {}) {
    super(steps.map(turnStepOf), options);
    this.#steps = [...steps];
    this.#fragmentLength = options.fragmentLength ?? 8;
  }

  async *stream(request: ModelRequest): AsyncGenerator<StreamEvent, void, undefined> {
    let events: readonly StreamEvent[];
    try {
      const index = this.recordRequest(request);
      const step = this.#steps[index];
      if (step === undefined) throw new ScriptExhaustedError(index + 1, this.#steps.length, request);
      events = isEvents(step)
        ? step.events
        : turnStreamEvents(deepCopy(typeof step === 'function' ? await step(request, index) : step), {
            fragmentLength: this.#fragmentLength,
          });
    } catch (error) {
      yield { type: 'error', error: error instanceof Error ? error : new Error(String(error)) };
      return;
    }
    for (const event of events) {
      if (request.signal?.aborted === true) {
        yield { type: 'error', error: abortedError(this.provider, request.signal.reason) };
        return;
      }
      // Errors keep their identity (tests compare them); everything else is a fresh copy of the script.
      yield event.type === 'error' ? event : deepCopy(event);
    }
  }
}

export function createScriptedStreamingModel(
  steps: readonly ScriptedStreamStep[],
  options: ScriptedStreamingModelOptions = {},
): ScriptedStreamingModel {
  return new ScriptedStreamingModel(steps, options);
}

function isEvents(step: ScriptedStreamStep): step is ScriptedEvents {
  return typeof step === 'object' && 'events' in step;
}

/** What `generate` answers for a step: the turn itself, or the turn its events end with. */
function turnStepOf(step: ScriptedStreamStep): ScriptedStep {
  if (!isEvents(step)) return step;
  return (): ModelTurn => {
    for (const event of step.events) {
      if (event.type === 'turn-end') return event.turn;
      if (event.type === 'error') throw event.error;
    }
    throw new Error('These scripted events end without a turn-end or error event, so generate has no turn to return.');
  };
}
