/** Size limits for binary parts of tool results, checked when the tool returns (before anything is sent). */
export interface ResultContentLimits {
  /** Largest image, in bytes. Default {@link DEFAULT_MAX_IMAGE_BYTES}. */
  readonly maxImageBytes?: number;
  /** Largest file or document, in bytes. Default {@link DEFAULT_MAX_FILE_BYTES}. */
  readonly maxFileBytes?: number;
}

/**
 * 10 MiB: above every provider's per-image limit except OpenAI's, so a bigger image would be refused by the
 * API anyway, after its base64 text (a third larger) had been sent on every turn of the run.
 */
export const DEFAULT_MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** 32 MiB: Anthropic's and OpenAI's limit for a PDF in a request. */
export const DEFAULT_MAX_FILE_BYTES = 32 * 1024 * 1024;
