import type { GeminiRequest, GeminiResponse } from './google-api.js';

/** Which official SDK carries the requests. */
export type GoogleSdk = 'genai' | 'generative-ai';

/**
 * What the translation needs from an SDK, and nothing more: one call, one stream, and the two places
 * where the SDKs disagree on the wire. Each binding is a thin file over one SDK client; everything
 * else (tools, messages, parsing, errors, streaming) is shared.
 *
 * A binding throws whatever its SDK throws; `mapGoogleError` turns that into a `ProviderError`.
 */
export interface GoogleBinding {
  readonly sdk: GoogleSdk;
  /**
   * Role of the content that carries `functionResponse` parts: `@google/genai` sends `user`, the legacy
   * `@google/generative-ai` sends `function` (its own chat code does so, and it refuses to mix
   * functionResponse parts with other parts in one content).
   */
  readonly functionResponseRole: 'user' | 'function';
  /** Whether `parametersJsonSchema` reaches the wire (both SDKs today; the legacy one sends it untyped). */
  readonly supportsJsonSchema: boolean;
  generateContent(request: GeminiRequest, signal: AbortSignal | undefined): Promise<GeminiResponse>;
  /** Yields each SSE chunk as a whole response; throws on an error chunk or a broken stream. */
  streamGenerateContent(request: GeminiRequest, signal: AbortSignal | undefined): AsyncIterable<GeminiResponse>;
}
