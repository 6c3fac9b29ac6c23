import type { JsonValue } from '@toolcircuit/core';

/** Which wire protocol a cassette speaks; it decides which adapter can replay it. */
export type CassetteProtocol = 'anthropic-messages' | 'openai-chat' | 'openai-responses' | 'gemini';

/**
 * Where a cassette came from. `recorded` and `imported` hold real provider traffic; `synthetic` was written
 * by hand or by a program and must never be presented as real.
 */
export type CassetteProvenance =
  | {
      readonly kind: 'recorded';
      /** When our recorder captured it from the real API. */
      readonly recordedAt: string;
      readonly note?: string;
    }
  | {
      readonly kind: 'imported';
      /** Real traffic recorded by another project, converted from its file in fixtures/recorded. */
      readonly sourceFile: string;
      readonly repo: string;
      readonly path: string;
      readonly commit: string;
      readonly license: string;
      readonly sha256: string;
      readonly note?: string;
      /** Other files in fixtures/recorded whose text this cassette uses (e.g. DERIVED decoded bodies). */
      readonly companionFiles?: readonly { readonly sourceFile: string; readonly sha256: string }[];
    }
  | {
      readonly kind: 'synthetic';
      /** Why it exists and what it was derived from, if anything. */
      readonly note: string;
    };

export interface RecordedRequest {
  readonly method: string;
  /** Path without the query, as the SDK sends it: `/v1/messages`, `/v1beta/models/gemini-2.5-flash:generateContent`. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly headers?: Readonly<Record<string, string>>;
  /** Parsed JSON body, when the request had one. */
  readonly body?: JsonValue;
}

/** One server-sent event. `event` is absent for data-only streams (OpenAI, Gemini). */
export interface SseEvent {
  readonly event?: string;
  readonly data: string;
}

export type RecordedBody =
  | { readonly kind: 'json'; readonly json: JsonValue }
  | { readonly kind: 'sse'; readonly events: readonly SseEvent[] }
  | { readonly kind: 'text'; readonly text: string };

export interface RecordedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: RecordedBody;
}

export interface Interaction {
  readonly request: RecordedRequest;
  readonly response: RecordedResponse;
}

export interface Cassette {
  readonly format: 'toolcircuit-cassette/1';
  readonly protocol: CassetteProtocol;
  readonly provenance: CassetteProvenance;
  /** The model id the traffic was recorded with, when known: replay tests use it so paths match. */
  readonly model?: string;
  readonly interactions: readonly Interaction[];
}
