import type { StreamEvent } from '@toolcircuit/core';
import { expect } from 'vitest';

/** Drains a stream and checks the one contract every stream keeps: exactly one terminal event, last. */
export async function collect(stream: AsyncIterable<StreamEvent> | undefined): Promise<StreamEvent[]> {
  if (stream === undefined) throw new Error('the model does not stream');
  const events: StreamEvent[] = [];
  for await (const event of stream) events.push(event);
  const terminal = events.filter((event) => event.type === 'turn-end' || event.type === 'error');
  expect(terminal).toHaveLength(1);
  expect(events.at(-1)).toBe(terminal[0]);
  return events;
}

export function turnEnd(events: readonly StreamEvent[]): Extract<StreamEvent, { type: 'turn-end' }> {
  const last = events.at(-1);
  if (last?.type !== 'turn-end') throw new Error(`expected turn-end, got ${JSON.stringify(last)}`);
  return last;
}

export function errorEvent(events: readonly StreamEvent[]): Extract<StreamEvent, { type: 'error' }> {
  const last = events.at(-1);
  if (last?.type !== 'error') throw new Error(`expected error, got ${JSON.stringify(last)}`);
  return last;
}
