import type { JsonContentPart, TextPart, ToolResultContent, ToolResultContentPart } from '../messages/messages.js';
import { mediaBase64, mediaByteLength, mediaDigest } from './media-data.js';
import type { MediaContentPart } from './media-part.js';

/** A binary part as a journal keeps it: its digest, type and size; the bytes only when asked to. */
export interface JournaledMediaPart {
  readonly type: 'image' | 'file';
  readonly mediaType: string;
  readonly name?: string;
  readonly url?: string;
  /** Size of the bytes (absent for a URL part). */
  readonly bytes?: number;
  /** SHA-256 (hex) of the bytes, or of the URL text. */
  readonly sha256: string;
  /** The bytes as base64, only with `keepMediaBytes`. */
  readonly data?: string;
}

/** Result content in journal form: plain JSON, binary parts replaced by {@link JournaledMediaPart}. */
export type JournaledResultContent = string | readonly (TextPart | JsonContentPart | JournaledMediaPart)[];

export interface JournalContentOptions {
  /** Keep each binary part's bytes (as base64) next to its digest. Default false: an audit trail rarely needs them. */
  readonly keepMediaBytes?: boolean;
}

/** The content unchanged when it has no binary part (the common case costs nothing), else a journal copy. */
export function journalContentOf(
  content: ToolResultContent,
  options: JournalContentOptions = {},
): JournaledResultContent {
  if (typeof content === 'string' || !hasMedia(content)) return content as JournaledResultContent;
  return content.map((part) => (isMedia(part) ? journaledMedia(part, options.keepMediaBytes === true) : part));
}

/**
 * The binary parts of a result in journal form (digests, never bytes), `undefined` when there are none:
 * then without allocating anything, since every journaled call asks.
 */
export function journaledMediaOf(content: ToolResultContent): readonly JournaledMediaPart[] | undefined {
  if (typeof content === 'string' || !hasMedia(content)) return undefined;
  return content.filter(isMedia).map((part) => journaledMedia(part, false));
}

/** Whether a result's parts include a binary one (a loop: no callback per part on the path of every call). */
function hasMedia(content: readonly ToolResultContentPart[]): boolean {
  for (const part of content) if (isMedia(part)) return true;
  return false;
}

function isMedia(part: ToolResultContentPart): part is MediaContentPart {
  return part.type === 'image' || part.type === 'file';
}

function journaledMedia(part: MediaContentPart, keepBytes: boolean): JournaledMediaPart {
  const bytes = mediaByteLength(part);
  const data = keepBytes ? mediaBase64(part) : undefined;
  return {
    type: part.type,
    mediaType: part.mediaType,
    ...(part.type === 'file' && part.name !== undefined ? { name: part.name } : {}),
    ...(part.url !== undefined ? { url: part.url } : {}),
    ...(bytes !== undefined ? { bytes } : {}),
    sha256: mediaDigest(part),
    ...(data !== undefined ? { data } : {}),
  };
}
