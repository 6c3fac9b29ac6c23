import type { ModelTurn } from '../messages/model-turn.js';
import type { StreamEvent } from '../messages/stream-events.js';
import { answerToolEvents, answerToolTurn } from './answer-tool.js';
import { restoredAnswerTurn } from './restore-answer.js';

/**
 * How an adapter reads a run's structured answer back: the answer tool's name when the answer travelled as
 * that tool's call, or the translator's `restore` when the provider-side schema reshaped values (absent:
 * the turn is already as the loop reads it).
 */
export interface FinalAnswerReading {
  readonly answerTool?: string | undefined;
  readonly restore?: ((value: unknown) => unknown) | undefined;
}

/** The turn as the loop reads a structured answer (see `answerToolTurn` and `restoredAnswerTurn`). */
export function finalAnswerTurn(turn: ModelTurn, reading: FinalAnswerReading): ModelTurn {
  if (reading.answerTool !== undefined) return answerToolTurn(turn, reading.answerTool);
  return reading.restore === undefined ? turn : restoredAnswerTurn(turn, reading.restore);
}

/**
 * The same on a stream: the answer tool's argument deltas arrive as text deltas; a restored answer's text
 * deltas stay as the provider sent them, and its `turn-end` carries the restored turn.
 */
export async function* finalAnswerEvents(
  events: AsyncIterable<StreamEvent>,
  reading: FinalAnswerReading,
): AsyncGenerator<StreamEvent> {
  if (reading.answerTool !== undefined) {
    yield* answerToolEvents(events, reading.answerTool);
    return;
  }
  const { restore } = reading;
  for await (const event of events) {
    yield restore !== undefined && event.type === 'turn-end'
      ? { ...event, turn: restoredAnswerTurn(event.turn, restore) }
      : event;
  }
}
