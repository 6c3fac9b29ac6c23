import type { ToolResultContent } from '../messages/messages.js';

/**
 * The text an argument value is looked for in: text parts as they are, and every string and number leaf of
 * JSON parts unescaped (a JSON text would hide `"a\"b"` or `é` behind escapes), one per line.
 */
export function searchableText(content: ToolResultContent): string {
  if (typeof content === 'string') return content;
  const pieces: string[] = [];
  for (const part of content as readonly unknown[]) {
    const typed = part as { readonly type?: unknown; readonly text?: unknown; readonly value?: unknown };
    if (typed.type === 'text' && typeof typed.text === 'string') pieces.push(typed.text);
    else if (typed.type === 'json') collectLeaves(typed.value, pieces, 0);
    // Any other kind of part (media with a title or alt text…): its fields, but not an inline payload.
    else collectLeaves(part, pieces, 0, ['data', 'type']);
  }
  return pieces.join('\n');
}

/**
 * The string and number leaves of a JSON value, one per line, with object keys (a key can carry text too),
 * except the keys in `skip` at any depth and their values: a provider item's `type` tags and opaque payloads.
 */
export function leafText(value: unknown, skip: readonly string[]): string {
  const pieces: string[] = [];
  collectLeaves(value, pieces, 0, skip, true);
  return pieces.join('\n');
}

function collectLeaves(
  value: unknown,
  into: string[],
  depth: number,
  skip: readonly string[] = [],
  skipDeep = false,
): void {
  // Content is a JSON copy, so there are no cycles; the depth bound only keeps a hostile nesting cheap.
  if (depth > 64) return;
  const inner = skipDeep ? skip : [];
  if (typeof value === 'string') into.push(value);
  else if (typeof value === 'number') into.push(String(value));
  else if (Array.isArray(value)) for (const item of value) collectLeaves(item, into, depth + 1, inner, skipDeep);
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (skip.includes(key)) continue;
      into.push(key);
      collectLeaves(item, into, depth + 1, inner, skipDeep);
    }
  }
}
