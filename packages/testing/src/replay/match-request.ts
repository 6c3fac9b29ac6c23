import type { JsonValue } from '@toolcircuit/core';
import type { Interaction } from '../cassettes/cassette.js';
import type { ReceivedRequest } from './received-request.js';
import { asksForStream, recordedAsStream } from './streamed.js';

/** Why a request cannot be answered by an interaction, and what to do about it. */
export interface MatchFailure {
  readonly reason: string;
  readonly hint?: string;
}

export interface MatchOptions {
  /**
   * Also compare the request body with the recorded one: every field the recording has must be there with
   * the same value (fields the recording lacks are ignored, so an SDK adding a header-like field still
   * matches). Off by default: a replay usually serves recorded answers to requests built anew.
   */
  readonly body?: boolean;
}

/**
 * The default test of a request against the next interaction: method, path (query excluded), then whether a
 * stream was asked for and recorded — serving SSE to a client that expects one JSON body (or the reverse)
 * fails later with an error that no longer says why — and, with `body`, the recorded body fields.
 */
export function matchRequest(
  received: ReceivedRequest,
  expected: Interaction,
  options: MatchOptions = {},
): MatchFailure | undefined {
  const recorded = expected.request;
  if (received.method !== recorded.method) {
    return { reason: `method ${received.method} ≠ recorded ${recorded.method}` };
  }
  if (received.path !== recorded.path) {
    return {
      reason: `path ${received.path} ≠ recorded ${recorded.path}`,
      hint: pathHint(received.path, recorded.path),
    };
  }
  const streamed = recordedAsStream(expected);
  const asked = asksForStream(received);
  if (streamed !== undefined && streamed !== asked) {
    return asked
      ? {
          reason: 'the request asks for a stream, the recorded answer is a single JSON body',
          hint: 'replay without streaming (toolcircuit run --no-stream), or record the cassette with streaming on',
        }
      : {
          reason: 'the request asks for a single JSON body, the recorded answer is a stream',
          hint: 'replay with streaming on (drop --no-stream / use streamLoop), or record the cassette without streaming',
        };
  }
  if (options.body === true && recorded.body !== undefined) {
    const difference = firstDifference(recorded.body, received.body, '');
    if (difference !== undefined) {
      return {
        reason: `body ${difference}`,
        hint: 'the request differs from the recorded one: re-record the cassette, or match without bodies',
      };
    }
  }
  return undefined;
}

function pathHint(received: string, recorded: string): string {
  const model = (path: string) => /\/models\/([^/:]+)/.exec(path)?.[1];
  const [asked, had] = [model(received), model(recorded)];
  if (asked !== undefined && had !== undefined && asked !== had) {
    return `the path names model ${asked}, the cassette was recorded with ${had}: use that model id`;
  }
  if (received.replace(/^\/v1/, '') === recorded.replace(/^\/v1/, '')) {
    return 'only the /v1 prefix differs: check the base URL given to the SDK (OpenAI wants it with /v1)';
  }
  return 'the SDK called another endpoint than the one recorded (another API, or another SDK)';
}

/** The first recorded field missing or different in `actual`, as `/pointer: recorded X, got Y`. */
function firstDifference(recorded: JsonValue, actual: JsonValue | undefined, pointer: string): string | undefined {
  if (isRecord(recorded) && isRecord(actual)) {
    for (const [key, value] of Object.entries(recorded)) {
      const found = firstDifference(value, actual[key], `${pointer}/${key}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (Array.isArray(recorded) && Array.isArray(actual) && recorded.length === actual.length) {
    for (const [index, value] of recorded.entries()) {
      const found = firstDifference(value, actual[index], `${pointer}/${index}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (JSON.stringify(recorded) === JSON.stringify(actual)) return undefined;
  return `${pointer === '' ? '/' : pointer}: recorded ${clip(recorded)}, got ${actual === undefined ? 'nothing' : clip(actual)}`;
}

function isRecord(value: JsonValue | undefined): value is { readonly [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function clip(value: JsonValue): string {
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
