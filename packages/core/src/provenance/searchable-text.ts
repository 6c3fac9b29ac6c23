import type { JsonObject } from '../json/json.js';
import { collectLeaves } from '../json/leaf-text.js';
import type { ToolResultContent, ToolResultPart } from '../messages/messages.js';

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
    else if (typed.type === 'json') collectLeaves(typed.value, pieces);
    // Any other kind of part (media with a title or alt text…): its fields, but not an inline payload.
    else collectLeaves(part, pieces, ['data', 'type']);
  }
  return pieces.join('\n');
}

/**
 * What a result brought into the run, which its taint is judged by: its content, or what the data-flow
 * options kept aside in its place (a quarantined output, the values an extraction read), which the model
 * was not shown but which its arguments may still carry (see `ToolResultPart.dataFlow`).
 */
export function keptContentOf(part: ToolResultPart): ToolResultContent {
  const kept = part.dataFlow;
  if (kept === undefined || kept === null || typeof kept !== 'object') return part.content;
  const quarantined: unknown = kept.quarantined?.content;
  // Read defensively: a stored conversation is the application's data; anything unreadable counts as it is shown.
  if (typeof quarantined === 'string' || Array.isArray(quarantined)) return quarantined as ToolResultContent;
  const values: unknown = kept.extracted?.values;
  if (values !== null && typeof values === 'object') return [{ type: 'json', value: values as JsonObject }];
  return part.content;
}
