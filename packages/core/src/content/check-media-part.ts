import { mediaByteLength } from './media-data.js';
import {
  type MediaContentPart,
  SUPPORTED_AUDIO_MEDIA_TYPES,
  SUPPORTED_FILE_MEDIA_TYPES,
  SUPPORTED_IMAGE_MEDIA_TYPES,
} from './media-part.js';

const SUPPORTED_FILES: readonly string[] = [...SUPPORTED_FILE_MEDIA_TYPES, ...SUPPORTED_AUDIO_MEDIA_TYPES];

import { DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_IMAGE_BYTES, type ResultContentLimits } from './result-content-limits.js';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Why a tool's binary part cannot be sent, in words the model can act on (`undefined` when it can). The
 * message ends up in the call's `isError` result, so it names the limit and the option that sets it.
 */
export function mediaPartProblem(part: MediaContentPart, limits: ResultContentLimits | undefined): string | undefined {
  const image = part.type === 'image';
  const what = image ? 'an image' : 'a file';
  const supported = image ? SUPPORTED_IMAGE_MEDIA_TYPES : SUPPORTED_FILES;
  if (!supported.includes(part.mediaType)) {
    return `it returned ${what} of unsupported media type "${part.mediaType}" (supported: ${supported.join(', ')})`;
  }
  if (part.url !== undefined) {
    return isHttpUrl(part.url) ? undefined : `it returned ${what} whose URL is not an http(s) URL`;
  }
  if (typeof part.data === 'string' && (part.data.length % 4 !== 0 || !BASE64.test(part.data))) {
    return `it returned ${what} whose data is neither bytes nor base64 text`;
  }
  const bytes = mediaByteLength(part) ?? 0;
  const limit = image
    ? (limits?.maxImageBytes ?? DEFAULT_MAX_IMAGE_BYTES)
    : (limits?.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES);
  if (bytes > limit) {
    const option = image ? 'maxImageBytes' : 'maxFileBytes';
    return `it returned ${what} of ${bytes} bytes, over the limit of ${limit} bytes (resultLimits.${option})`;
  }
  return undefined;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}
