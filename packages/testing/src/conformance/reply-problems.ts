import type { JsonValue } from '@toolcircuit/core';
import { arrayAt, stringAt } from '../cassettes/json-access.js';
import type { ExpectedResult } from './conformance-wire.js';

// Shared wording for the wires' reply checks: each problem names what was found and what was expected.

export function listOf(values: readonly (string | undefined)[]): string {
  return `[${values.map((value) => value ?? '(none)').join(', ')}]`;
}

/** The `key` string of each item, for listing what a request actually held. */
export function fieldsOf(items: readonly JsonValue[], key: string): (string | undefined)[] {
  return items.map((item) => stringAt(item, key));
}

/** Whether wire result content (a string, or text parts) holds the neutral result's text. */
export function textHolds(content: JsonValue | undefined, expected: ExpectedResult | undefined): boolean {
  if (expected === undefined) return false;
  const text =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content.map((part) => stringAt(part, 'text') ?? '').join('\n')
        : undefined;
  return text?.includes(expected.text) === true;
}

/** Re-sent call arguments must be JSON text: the API rejects a history whose arguments do not parse. */
export function isJsonText(value: string | undefined): boolean {
  if (value === undefined) return false;
  try {
    JSON.parse(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * The last two entries of a request's history (`messages`, `contents`): the turn that made the calls and the
 * reply to it. A turn of another role is reported in `problems`.
 */
export function turnAndReply(
  body: JsonValue | undefined,
  listKey: string,
  turnRole: string,
  problems: string[],
): { readonly turn: JsonValue | undefined; readonly reply: JsonValue | undefined } {
  const list = arrayAt(body, listKey);
  const turn = list.at(-2);
  // `messages` → the message, `contents` → the content.
  if (stringAt(turn, 'role') !== turnRole)
    problems.push(`the ${listKey.slice(0, -1)} before the results is not the ${turnRole} turn`);
  return { turn, reply: list.at(-1) };
}
