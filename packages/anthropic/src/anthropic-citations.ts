import type { JsonObject, JsonValue, SourcePart } from '@toolcircuit/core';

/**
 * One of Claude's text citations as a neutral source. A text block that carries citations is the span they
 * support, so a source has no `textRange`: it supports its whole text part. Web search and search result
 * citations name a page (`url`); document citations an index into the request's documents, with the cited
 * characters, pages or content blocks as `location`. The citation itself stays on the text part's metadata
 * (`citations`), which is what goes back to the API (web search citations need their `encrypted_index`).
 */
export function sourceOfCitation(citation: JsonValue): SourcePart | undefined {
  if (!isObject(citation)) return undefined;
  const citedText = stringOf(citation['cited_text']);
  const common = { type: 'source' as const, ...(citedText === undefined ? {} : { citedText }) };
  switch (citation['type']) {
    case 'web_search_result_location': {
      const url = stringOf(citation['url']);
      if (url === undefined) return undefined;
      return { ...common, sourceType: 'url', url, ...titleOf(citation['title']) };
    }
    case 'search_result_location': {
      const source = stringOf(citation['source']);
      return {
        ...common,
        sourceType: source !== undefined && /^https?:\/\//.test(source) ? 'url' : 'document',
        ...(source !== undefined && /^https?:\/\//.test(source) ? { url: source } : {}),
        ...titleOf(citation['title']),
        ...indexOf(citation['search_result_index']),
        ...locationOf('block', citation['start_block_index'], citation['end_block_index']),
      };
    }
    case 'char_location':
      return documentSource(common, citation, 'char', 'start_char_index', 'end_char_index');
    case 'page_location':
      return documentSource(common, citation, 'page', 'start_page_number', 'end_page_number');
    case 'content_block_location':
      return documentSource(common, citation, 'block', 'start_block_index', 'end_block_index');
    default:
      return undefined;
  }
}

/** The sources of a text block's citations, in order (citations this adapter cannot read give none). */
export function sourcesOfCitations(citations: readonly JsonValue[] | null | undefined): SourcePart[] {
  return (citations ?? []).flatMap((citation) => {
    const source = sourceOfCitation(citation);
    return source === undefined ? [] : [source];
  });
}

function documentSource(
  common: Pick<SourcePart, 'type' | 'citedText'>,
  citation: JsonObject,
  unit: 'char' | 'page' | 'block',
  startKey: string,
  endKey: string,
): SourcePart {
  const fileId = stringOf(citation['file_id']);
  return {
    ...common,
    sourceType: 'document',
    ...titleOf(citation['document_title']),
    ...indexOf(citation['document_index']),
    ...(fileId === undefined ? {} : { fileId }),
    ...locationOf(unit, citation[startKey], citation[endKey]),
  };
}

function titleOf(value: JsonValue | undefined): { title?: string } {
  const title = stringOf(value);
  return title === undefined ? {} : { title };
}

function indexOf(value: JsonValue | undefined): { documentIndex?: number } {
  return typeof value === 'number' ? { documentIndex: value } : {};
}

function locationOf(
  unit: 'char' | 'page' | 'block',
  start: JsonValue | undefined,
  end: JsonValue | undefined,
): Pick<SourcePart, 'location'> {
  return typeof start === 'number' && typeof end === 'number' ? { location: { unit, start, end } } : {};
}

function stringOf(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
