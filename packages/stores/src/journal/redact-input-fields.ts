import type { JsonValue } from '@toolcircuit/core';
import type { JournalRecord } from './journal-record.js';
import { REDACTED } from './scrub-secrets.js';

/**
 * A `redact` function for a store's journal policy: for each tool, the input fields (dot paths, e.g.
 * `card.number`) that are secret. Their values are replaced, and the provider's raw argument text of such a
 * tool is dropped, since it may hold the same secret. The argument digest stays: it is what confirmations
 * refer to, and it reveals nothing that cannot be guessed by trying every value, so keep low-entropy
 * secrets (PINs) out of tool arguments altogether.
 */
export function redactInputFields(
  secretFields: Readonly<Record<string, readonly string[]>>,
): (record: JournalRecord) => JournalRecord {
  return (record) => {
    if (record.kind !== 'call') return record;
    const fields = secretFields[record.toolName];
    if (fields === undefined || fields.length === 0) return record;
    let input = record.input;
    for (const field of fields) input = withoutPath(input, field.split('.'));
    const { rawInput: _raw, ...rest } = record;
    return { ...rest, input, ...(record.rawInput === undefined ? {} : { rawInput: REDACTED }) };
  };
}

function withoutPath(value: JsonValue, path: readonly string[]): JsonValue {
  const [head, ...tail] = path;
  if (head === undefined || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    // A path through an array applies to each element (`items.cvc`).
    return value.map((element) => withoutPath(element, path));
  }
  if (!Object.hasOwn(value, head)) return value;
  const child = value[head] as JsonValue;
  return { ...value, [head]: tail.length === 0 ? REDACTED : withoutPath(child, tail) };
}
