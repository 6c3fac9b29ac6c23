import type { Cassette } from '../cassettes/cassette.js';
import type { CassetteIndexEntry } from '../cassettes/cassette-index.js';
import { summarizeResponse } from '../cassettes/summarize-response.js';

/** The INDEX.json row for a converted file, with a skip reason when an SDK-based adapter test cannot use it. */
export function buildIndexEntry(
  name: string,
  cassette: Cassette,
  sha256: string,
  sourceFile: string,
): CassetteIndexEntry {
  const responses = cassette.interactions.map((interaction) =>
    summarizeResponse(cassette.protocol, interaction.response),
  );
  const skipReason = skipReasonOf(cassette, responses);
  return {
    sourceFile,
    sha256,
    cassette: name,
    protocol: cassette.protocol,
    streaming: responses.some((response) => response.streaming),
    interactions: cassette.interactions.length,
    responses,
    ...(skipReason === undefined ? {} : { skipReason }),
  };
}

function skipReasonOf(
  cassette: Cassette,
  responses: readonly ReturnType<typeof summarizeResponse>[],
): string | undefined {
  const jsonArrayStream = cassette.interactions.some(
    ({ request, response }) =>
      request.path.endsWith(':streamGenerateContent') &&
      request.query?.['alt'] !== 'sse' &&
      response.body.kind === 'text' &&
      !(response.headers['content-type'] ?? '').includes('event-stream'),
  );
  if (jsonArrayStream) {
    return 'streamGenerateContent without alt=sse (a JSON-array stream): @google/genai and @google/generative-ai always request alt=sse and parse SSE, so an SDK-based adapter cannot consume it; kept for its request bodies.';
  }
  const toolCalls = responses.some((response) => response.toolCalls > 0);
  const errors = responses.some((response) => response.status >= 400 || response.error !== undefined);
  if (!toolCalls && !errors && cassette.interactions.length < 2) return 'no tool call, no round-trip, no error';
  return undefined;
}
