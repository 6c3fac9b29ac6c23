import type {
  AssistantContentPart,
  JsonObject,
  JsonValue,
  ProviderMetadata,
  SourcePart,
  TextPart,
} from '@toolcircuit/core';
import { textRangeOfUtf8Bytes } from '@toolcircuit/core/provider';
import type { GeminiCandidate } from './google-api.js';
import { GOOGLE_PROVIDER } from './google-metadata.js';

/** The candidate fields that say where its text came from: kept whole on the turn, read as sources. */
const SOURCE_FIELDS = ['groundingMetadata', 'urlContextMetadata', 'citationMetadata'] as const;

export type GoogleSourceMetadata = Partial<Record<(typeof SOURCE_FIELDS)[number], JsonObject>>;

/** The source metadata of a candidate (or of the last stream chunk that had each field). */
export function sourceMetadataOf(
  candidate: GeminiCandidate | undefined,
  into: GoogleSourceMetadata = {},
): GoogleSourceMetadata {
  for (const field of SOURCE_FIELDS) {
    const value = (candidate as Record<string, unknown> | undefined)?.[field];
    if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
    into[field] = field === 'citationMetadata' ? restNamed(value as JsonObject) : (value as JsonObject);
  }
  return into;
}

// @google/genai renames the REST `citationSources` to `citations`; the turn keeps the REST name on both SDKs.
function restNamed(citationMetadata: JsonObject): JsonObject {
  const { citations, ...rest } = citationMetadata;
  return citations === undefined || 'citationSources' in rest
    ? citationMetadata
    : { ...rest, citationSources: citations };
}

/** The turn's metadata with the source metadata kept whole (a search entry point must be shown as Google gives it). */
export function withSourceMetadata(
  metadata: { providerMetadata?: ProviderMetadata },
  sources: GoogleSourceMetadata,
): { providerMetadata?: ProviderMetadata } {
  if (Object.keys(sources).length === 0) return metadata;
  const bag = metadata.providerMetadata?.[GOOGLE_PROVIDER] ?? {};
  return { providerMetadata: { [GOOGLE_PROVIDER]: { ...bag, ...(sources as JsonObject) } } };
}

/**
 * Attaches Gemini's sources to the turn's text parts: each grounding support's chunks (search results, fetched
 * pages, retrieved documents) to the text its segment spans (Gemini counts UTF-8 bytes of the answer's text,
 * which become the part's UTF-16 `textRange`), chunks no support cites, the URLs URL context retrieved, and
 * recitation citations. A source that cannot be placed in a text goes on the last text part; a turn with
 * sources and no text gets an empty text part to carry them, so none is lost.
 */
export function withGoogleSources(
  content: readonly AssistantContentPart[],
  metadata: GoogleSourceMetadata,
): AssistantContentPart[] {
  const found = sourcesByPart(content, metadata);
  if (found.size === 0) return [...content];
  const result = content.map((part, index) => {
    const sources = found.get(index);
    return sources === undefined || part.type !== 'text'
      ? part
      : { ...part, sources: [...(part.sources ?? []), ...sources] };
  });
  const orphans = found.get(-1);
  if (orphans !== undefined) result.push({ type: 'text', text: '', sources: orphans } satisfies TextPart);
  return result;
}

function sourcesByPart(
  content: readonly AssistantContentPart[],
  metadata: GoogleSourceMetadata,
): Map<number, SourcePart[]> {
  const texts: { index: number; start: number; length: number }[] = [];
  let full = '';
  content.forEach((part, index) => {
    if (part.type !== 'text') return;
    texts.push({ index, start: full.length, length: part.text.length });
    full += part.text;
  });
  const found = new Map<number, SourcePart[]>();
  const last = texts.at(-1)?.index ?? -1;
  const add = (index: number, source: SourcePart) => {
    const list = found.get(index) ?? [];
    list.push(source);
    found.set(index, list);
  };
  // A span of the whole answer → the text part it starts in, and the span within that part.
  const place = (
    start: JsonValue | undefined,
    end: JsonValue | undefined,
  ): { index: number; range?: SourcePart['textRange'] } => {
    if (typeof end !== 'number') return { index: last };
    const range = textRangeOfUtf8Bytes(full, typeof start === 'number' ? start : 0, end);
    const text =
      range === undefined ? undefined : texts.find((t) => range.start >= t.start && range.start < t.start + t.length);
    if (range === undefined || text === undefined) return { index: last };
    return {
      index: text.index,
      range: { start: range.start - text.start, end: Math.min(range.end, text.start + text.length) - text.start },
    };
  };

  const grounding = metadata.groundingMetadata;
  const chunks = arrayOf(grounding?.['groundingChunks']);
  const cited = new Set<number>();
  for (const support of arrayOf(grounding?.['groundingSupports'])) {
    const segment = objectOf(support['segment']);
    const { index, range } = place(segment?.['startIndex'], segment?.['endIndex']);
    for (const chunkIndex of numbersOf(support['groundingChunkIndices'])) {
      const source = chunkSource(chunks[chunkIndex]);
      if (source === undefined) continue;
      cited.add(chunkIndex);
      add(index, range === undefined ? source : { ...source, textRange: range });
    }
  }
  chunks.forEach((chunk, chunkIndex) => {
    if (cited.has(chunkIndex)) return;
    const source = chunkSource(chunk);
    if (source !== undefined) add(last, source);
  });
  const known = new Set([...found.values()].flat().map((source) => source.url));
  for (const entry of arrayOf(metadata.urlContextMetadata?.['urlMetadata'])) {
    const url = stringOf(entry['retrievedUrl']);
    if (url === undefined || known.has(url)) continue;
    known.add(url);
    add(last, { type: 'source', sourceType: 'url', url });
  }
  for (const citation of arrayOf(metadata.citationMetadata?.['citationSources'])) {
    const url = stringOf(citation['uri']);
    if (url === undefined) continue;
    const { index, range } = place(citation['startIndex'], citation['endIndex']);
    const title = stringOf(citation['title']);
    add(index, {
      type: 'source',
      sourceType: 'url',
      url,
      ...(title === undefined ? {} : { title }),
      ...(range === undefined ? {} : { textRange: range }),
    });
  }
  return found;
}

/** A grounding chunk: a web result or map place (`url`), or a retrieved document (with its passage). */
function chunkSource(chunk: JsonObject | undefined): SourcePart | undefined {
  const web = objectOf(chunk?.['web']) ?? objectOf(chunk?.['maps']);
  if (web !== undefined) {
    const url = stringOf(web['uri']);
    if (url === undefined) return undefined;
    const title = stringOf(web['title']);
    return { type: 'source', sourceType: 'url', url, ...(title === undefined ? {} : { title }) };
  }
  const retrieved = objectOf(chunk?.['retrievedContext']);
  if (retrieved === undefined) return undefined;
  const url = stringOf(retrieved['uri']);
  const title = stringOf(retrieved['title']);
  const text = stringOf(retrieved['text']);
  return {
    type: 'source',
    sourceType: 'document',
    ...(url === undefined ? {} : { url }),
    ...(title === undefined ? {} : { title }),
    ...(text === undefined ? {} : { citedText: text }),
  };
}

function arrayOf(value: JsonValue | undefined): JsonObject[] {
  return Array.isArray(value) ? value.filter((item): item is JsonObject => objectOf(item) !== undefined) : [];
}

function objectOf(value: JsonValue | undefined): JsonObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
}

function numbersOf(value: JsonValue | undefined): number[] {
  return Array.isArray(value) ? value.filter((item): item is number => typeof item === 'number') : [];
}

function stringOf(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
