import { isAudioMediaType, isTextMediaType, type MediaContentPart } from './media-part.js';

/**
 * The kinds of result part whose handling differs between providers: the rows of the coverage table.
 * GIF is its own row because Gemini does not read GIF images.
 */
export type ResultPartKind =
  | 'text'
  | 'json'
  | 'image-data'
  | 'image-url'
  | 'image-gif'
  | 'pdf-data'
  | 'pdf-url'
  | 'text-file-data'
  | 'text-file-url'
  | 'audio-data'
  | 'audio-url';

export const RESULT_PART_KINDS: readonly ResultPartKind[] = Object.freeze([
  'text',
  'json',
  'image-data',
  'image-url',
  'image-gif',
  'pdf-data',
  'pdf-url',
  'text-file-data',
  'text-file-url',
  'audio-data',
  'audio-url',
]);

/**
 * What an adapter does with one kind of part:
 * - `native`: sent inside the provider's tool result as what it is;
 * - `re-encoded`: sent inside the tool result in another form (a text file as text, JSON as its text);
 * - `moved`: sent outside the tool result (e.g. in a following user message that names the call);
 * - `placeholder`: replaced by a line that describes it (type, size, digest or URL).
 */
export type ResultCoverage = 'native' | 're-encoded' | 'moved' | 'placeholder';

/** One adapter's column of the coverage table; its converter dispatches on it, so the table cannot drift. */
export type ResultCoverageTable = Readonly<Record<ResultPartKind, ResultCoverage>>;

export function resultPartKindOf(part: MediaContentPart): ResultPartKind {
  if (part.type === 'image') {
    if (part.mediaType === 'image/gif') return 'image-gif';
    return part.url === undefined ? 'image-data' : 'image-url';
  }
  if (isAudioMediaType(part.mediaType)) return part.url === undefined ? 'audio-data' : 'audio-url';
  if (isTextMediaType(part.mediaType)) return part.url === undefined ? 'text-file-data' : 'text-file-url';
  return part.url === undefined ? 'pdf-data' : 'pdf-url';
}

/** The coverage table as Markdown, one column per provider (the README's table is checked against this). */
export function renderResultCoverageTable(
  columns: readonly { provider: string; table: ResultCoverageTable }[],
): string {
  const header = `| part | ${columns.map((column) => column.provider).join(' | ')} |`;
  const rule = `|---|${columns.map(() => '---|').join('')}`;
  const rows = RESULT_PART_KINDS.map(
    (kind) => `| ${kind} | ${columns.map((column) => column.table[kind]).join(' | ')} |`,
  );
  return [header, rule, ...rows].join('\n');
}
