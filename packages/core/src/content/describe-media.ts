import { mediaByteLength, mediaDigest } from './media-data.js';
import { isAudioMediaType, type MediaContentPart } from './media-part.js';

/**
 * One line that stands for a binary part where its bytes cannot go: in text-only renderings, in placeholders
 * and in the pointer a provider sees when the part was moved. Names the file, type, size and digest, so a
 * model can still tell the user what the tool produced and a reader can match it with the journal.
 */
export function describeMedia(part: MediaContentPart): string {
  const what = part.type === 'image' ? 'image' : isAudioMediaType(part.mediaType) ? 'audio' : 'file';
  const name = part.type === 'file' && part.name !== undefined ? ` "${part.name}"` : '';
  if (part.url !== undefined) return `[${what}${name} (${part.mediaType}) at ${part.url}]`;
  return `[${what}${name} (${part.mediaType}), ${mediaByteLength(part)} bytes, sha256 ${mediaDigest(part).slice(0, 16)}]`;
}
