import { collectLeaves } from '../json/leaf-text.js';
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
    else if (typed.type === 'json') collectLeaves(typed.value, pieces);
    // Any other kind of part (media with a title or alt text…): its fields, but not an inline payload.
    else collectLeaves(part, pieces, ['data', 'type']);
  }
  return pieces.join('\n');
}
