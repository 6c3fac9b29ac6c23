import { type CorpusTool, loadCorpusTools } from '../scenario/corpus-tools.js';

/** The size of one tool result in the long run: 20 KB of text. */
export const LONG_RUN_RESULT_CHARS = 20_480;

let corpus: readonly CorpusTool[] | undefined;

/**
 * Page `n` of the long run's archive: `chars` characters of JSON lines, one per tool of the repository's real
 * tool corpus (description and input schema, written by the tools' authors), starting at a place that depends
 * on `n`, so each page differs and reads like what a query or a file read returns: real prose and JSON, which
 * tokenizers count as they would a real result (a repeated filler would compress to a few tokens).
 */
export function archivePage(n: number, chars = LONG_RUN_RESULT_CHARS): string {
  corpus ??= loadCorpusTools();
  const tools = corpus;
  let text = '';
  for (let index = (n * 37) % tools.length; text.length < chars; index = (index + 1) % tools.length) {
    const tool = tools[index] as CorpusTool;
    text += `${JSON.stringify({ id: `${n}-${index}`, description: tool.description, input_schema: tool.inputSchema })}\n`;
  }
  // Flat, as a result read from a socket or a file is: a string built by `+=` and sliced is a rope that the first
  // regular expression or serialiser to read it must copy, a cost no real result brings.
  return flat(text.slice(0, chars));
}

function flat(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}
