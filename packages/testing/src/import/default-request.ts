import type { CassetteProtocol, RecordedRequest } from '../cassettes/cassette.js';

/**
 * The model put in Gemini paths when a source does not name one: every example in the @google/genai
 * 2.32 README uses `gemini-flash-latest`.
 */
export const DEFAULT_GEMINI_MODEL = 'gemini-flash-latest';

/** The provenance sentence for a Gemini path that had to use {@link DEFAULT_GEMINI_MODEL}. */
export const DEFAULT_GEMINI_MODEL_NOTE = `The source names no model; the path uses ${DEFAULT_GEMINI_MODEL}, the model of the @google/genai README examples.`;

/**
 * The request an official SDK sends for a response stored without its request (see docs/toolchain.md
 * "Pointing the official SDKs at a local replay server").
 */
export function defaultRequest(protocol: CassetteProtocol, streaming: boolean, model: string): RecordedRequest {
  switch (protocol) {
    case 'anthropic-messages':
      return { method: 'POST', path: '/v1/messages' };
    case 'openai-chat':
      return { method: 'POST', path: '/v1/chat/completions' };
    case 'openai-responses':
      return { method: 'POST', path: '/v1/responses' };
    case 'gemini':
      return streaming
        ? { method: 'POST', path: `/v1beta/models/${model}:streamGenerateContent`, query: { alt: 'sse' } }
        : { method: 'POST', path: `/v1beta/models/${model}:generateContent` };
  }
}

/** The sentence that says which path was chosen and why, for provenance.note. */
export function defaultRequestNote(protocol: CassetteProtocol, request: RecordedRequest): string {
  const query = request.query?.['alt'] === 'sse' ? '?alt=sse' : '';
  const sdk = {
    'anthropic-messages': '@anthropic-ai/sdk',
    'openai-chat': 'openai',
    'openai-responses': 'openai',
    gemini: '@google/genai and @google/generative-ai',
  }[protocol];
  return `The source stores no request: ${request.method} ${request.path}${query} is the request ${sdk} sends for this call.`;
}
