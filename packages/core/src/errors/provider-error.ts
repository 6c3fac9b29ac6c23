import { ToolcircuitError } from './toolcircuit-error.js';

export type ProviderErrorCode =
  | 'rate_limited'
  | 'overloaded'
  | 'invalid_request'
  | 'authentication'
  | 'permission'
  | 'not_found'
  | 'context_window_exceeded'
  | 'server_error'
  | 'connection'
  | 'aborted'
  /** A 2xx answer whose body is not the API's (an HTML page from a proxy or a wrong base URL). */
  | 'invalid_response'
  /**
   * The model asked the application to act in a way the adapter cannot answer (a provider tool type it does
   * not know): nothing ran, and the turn cannot be completed. Declare a catalogue tool for that type, or stop
   * offering the provider's tool.
   */
  | 'unsupported_call'
  | 'unknown';

export interface ProviderErrorInit {
  readonly provider: string;
  readonly code: ProviderErrorCode;
  readonly message: string;
  readonly status?: number | undefined;
  /** Whether sending the same request again later can succeed (429, 5xx, 529, connection resets). */
  readonly retryable: boolean;
  /** From `retry-after` headers or Gemini `RetryInfo.retryDelay`. */
  readonly retryAfterMs?: number | undefined;
  /** The provider's own error type (`rate_limit_error`, `RESOURCE_EXHAUSTED`, `insufficient_quota`…). */
  readonly providerCode?: string | undefined;
  readonly requestId?: string | undefined;
  readonly cause?: unknown;
}

/** A provider answered with an error, or could not be reached. Adapters translate SDK errors into this. */
export class ProviderError extends ToolcircuitError {
  readonly kind = 'provider' as const;
  readonly code: ProviderErrorCode;
  readonly provider: string;
  readonly status: number | undefined;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  readonly providerCode: string | undefined;
  readonly requestId: string | undefined;

  constructor(init: ProviderErrorInit) {
    super(`${init.provider}: ${init.message}`, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.provider = init.provider;
    this.status = init.status;
    this.retryable = init.retryable;
    this.retryAfterMs = init.retryAfterMs;
    this.providerCode = init.providerCode;
    this.requestId = init.requestId;
  }
}
