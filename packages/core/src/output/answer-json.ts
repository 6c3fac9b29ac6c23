/** The answer's text read as JSON: the value, or why it is not JSON. */
export type AnswerJson =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: string };

/**
 * Reads a final answer's text as one JSON value. Native structured modes send the bare JSON; a model asked
 * without one (a corrective turn on a provider that has none) may wrap it in a Markdown code fence, which is
 * the only thing removed. Nothing else is repaired: text that is not JSON is reported, never guessed at.
 */
export function answerJson(text: string): AnswerJson {
  const trimmed = unfenced(text.trim());
  if (trimmed === '') return { ok: false, error: 'the answer is empty' };
  try {
    return { ok: true, value: JSON.parse(trimmed) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, error: message.length > 160 ? `${message.slice(0, 160)}…` : message };
  }
}

/** The inside of one fenced block (```json … ```), or the text as it is. */
export function unfenced(text: string): string {
  if (!text.startsWith('```')) return text;
  const firstLine = text.indexOf('\n');
  if (firstLine === -1) return text;
  const body = text.slice(firstLine + 1);
  const end = body.lastIndexOf('```');
  return (end === -1 ? body : body.slice(0, end)).trim();
}
