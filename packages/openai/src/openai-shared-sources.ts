import type { JsonValue, SourcePart } from '@toolcircuit/core';
import { textRangeOfCodePoints } from '@toolcircuit/core/provider';

/**
 * OpenAI's annotations on output text as neutral sources, in order: Responses `url_citation`,
 * `file_citation`, `container_file_citation` and `file_path` on `output_text`, and Chat Completions'
 * `message.annotations` (`{ type: 'url_citation', url_citation: {…} }`). Their indices count characters
 * (code points) of the text and become UTF-16 `textRange`s; a file citation's single `index` marks where the
 * citation stands, not a span, so it gives none. An annotation of another type gives no source (the raw list
 * stays on the text part's metadata, which is what goes back to the API).
 */
export function sourcesOfAnnotations(text: string, annotations: readonly JsonValue[]): SourcePart[] {
  const sources: SourcePart[] = [];
  for (const raw of annotations) {
    if (!isObject(raw)) continue;
    // Chat nests the citation under its type's name; Responses keeps it flat.
    const nested = raw['type'] === 'url_citation' && isObject(raw['url_citation']) ? raw['url_citation'] : raw;
    const range = spanOf(text, nested);
    const title = stringOf(nested['title']);
    switch (raw['type']) {
      case 'url_citation': {
        const url = stringOf(nested['url']);
        if (url === undefined) break;
        sources.push({ type: 'source', sourceType: 'url', url, ...opt('title', title), ...opt('textRange', range) });
        break;
      }
      case 'file_citation':
      case 'container_file_citation':
      case 'file_path': {
        const fileId = stringOf(nested['file_id']);
        if (fileId === undefined) break;
        sources.push({
          type: 'source',
          sourceType: 'file',
          fileId,
          ...opt('filename', stringOf(nested['filename'])),
          ...opt('textRange', range),
        });
        break;
      }
      default:
        break;
    }
  }
  return sources;
}

function spanOf(text: string, annotation: Record<string, JsonValue>): SourcePart['textRange'] {
  const start = annotation['start_index'];
  const end = annotation['end_index'];
  if (typeof start !== 'number' || typeof end !== 'number') return undefined;
  return textRangeOfCodePoints(text, start, end);
}

function opt<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function stringOf(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function isObject(value: JsonValue | undefined): value is Record<string, JsonValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
