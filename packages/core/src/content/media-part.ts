/**
 * Binary or linked content in a tool result. Exactly one of `data` (the bytes, or their base64 text when the
 * tool already has it, e.g. from an MCP server) and `url` (fetched by the provider, never by toolcircuit).
 * The bytes are shared, not copied: a tool must not change them after returning them.
 */
export type MediaSource =
  | { readonly data: Uint8Array | string; readonly url?: undefined }
  | { readonly url: string; readonly data?: undefined };

/** A picture: a screenshot, a chart. `mediaType` is one of {@link SUPPORTED_IMAGE_MEDIA_TYPES}. */
export type ImageContentPart = {
  readonly type: 'image';
  readonly mediaType: string;
} & MediaSource;

/**
 * A document or file: a PDF, a text or CSV file, or a sound. `mediaType` is one of
 * {@link SUPPORTED_FILE_MEDIA_TYPES} or {@link SUPPORTED_AUDIO_MEDIA_TYPES}; `name` is the file name the model
 * and the provider see (OpenAI requires one for PDFs).
 */
export type FileContentPart = {
  readonly type: 'file';
  readonly mediaType: string;
  readonly name?: string;
} & MediaSource;

/** The parts of a tool result that are not text: what adapters map, move or replace per provider. */
export type MediaContentPart = ImageContentPart | FileContentPart;

/** Images every adapter knows how to send (the common set of the providers' image inputs). */
export const SUPPORTED_IMAGE_MEDIA_TYPES: readonly string[] = Object.freeze([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
]);

/** Files every adapter knows how to send: PDFs natively, text files as text where they cannot go as files. */
export const SUPPORTED_FILE_MEDIA_TYPES: readonly string[] = Object.freeze([
  'application/pdf',
  'text/plain',
  'text/markdown',
  'text/csv',
]);

/**
 * Sounds a tool may return. No provider takes audio in a tool result, so adapters describe it as text (type,
 * size, digest); it goes as itself where the result has another reader (an MCP client of a served catalogue).
 */
export const SUPPORTED_AUDIO_MEDIA_TYPES: readonly string[] = Object.freeze([
  'audio/wav',
  'audio/mpeg',
  'audio/ogg',
  'audio/webm',
  'audio/flac',
]);

export function isAudioMediaType(mediaType: string): boolean {
  return SUPPORTED_AUDIO_MEDIA_TYPES.includes(mediaType);
}

/** A text file's content can always be carried as text, so every provider can take one. */
export function isTextMediaType(mediaType: string): boolean {
  return mediaType.startsWith('text/');
}
