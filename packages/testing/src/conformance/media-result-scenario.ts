import { createHash } from 'node:crypto';
import {
  type Catalogue,
  createCatalogue,
  createSession,
  DEFAULT_MAX_IMAGE_BYTES,
  defineTool,
  InMemoryJournal,
  type JsonObject,
  type LoopResult,
  type Model,
  type ResultCoverageTable,
  resultContentChangesOf,
  runLoop,
  streamLoop,
  type ToolMessage,
} from '@toolcircuit/core';
import type { CassetteProtocol } from '../cassettes/cassette.js';
import { SYNTHETIC_PDF, SYNTHETIC_PDF_BASE64, SYNTHETIC_PNG, SYNTHETIC_PNG_BASE64 } from '../media/synthetic-media.js';
import { type RecordedWireRequest, startRecordingServer } from '../record/recording-server.js';
import type { ConformanceTurn } from './conformance-scenario.js';
import { conformanceWireOf } from './conformance-wires.js';

/** The right the media tools need (the scenario's session holds it). */
const CAPTURE_RIGHT = 'pages:capturer';

/** 20 MiB: twice the default image limit, what a full-page screenshot of a long page can weigh. */
export const OVERSIZED_IMAGE_BYTES = 20 * 1024 * 1024;

/**
 * The media-result scenario: the model calls `capture_page`, which returns text, a PNG and a PDF, and
 * `capture_full_page`, whose 20 MiB image is over the default limit; then it answers with text. Every
 * backend must send the first result's parts the way its coverage table says, and the second as an
 * `isError` result naming the limit, and the run must go on.
 */
export const MEDIA_RESULT_TURNS: readonly ConformanceTurn[] = [
  {
    calls: [
      { name: 'capture_page', arguments: { url: 'https://example.test/report' } },
      { name: 'capture_full_page', arguments: { url: 'https://example.test/report' } },
    ],
  },
  { text: 'The report page shows one chart; the full page was too large to capture.', calls: [] },
];

export function createMediaResultCatalogue(): Catalogue {
  const input = {
    type: 'object',
    properties: { url: { type: 'string' } },
    required: ['url'],
    additionalProperties: false,
  } as const;
  return createCatalogue([
    defineTool({
      name: 'capture_page',
      description: 'Captures a web page as a screenshot and a PDF.',
      inputSchema: input,
      right: CAPTURE_RIGHT,
      run: ({ url }) => ({
        isError: false,
        content: [
          { type: 'text', text: `Captured ${url}.` },
          { type: 'image', mediaType: 'image/png', data: SYNTHETIC_PNG },
          { type: 'file', mediaType: 'application/pdf', name: 'report.pdf', data: SYNTHETIC_PDF },
        ],
      }),
    }),
    defineTool({
      name: 'capture_full_page',
      description: 'Captures a whole web page, however long, as one screenshot.',
      inputSchema: input,
      right: CAPTURE_RIGHT,
      run: () => ({
        isError: false,
        content: [{ type: 'image', mediaType: 'image/png', data: new Uint8Array(OVERSIZED_IMAGE_BYTES) }],
      }),
    }),
  ]);
}

export interface MediaResultScenarioOptions {
  readonly protocol: CassetteProtocol;
  readonly createModel: (server: { readonly baseURL: string; readonly modelId: string }) => Model;
  /**
   * Runs `streamLoop` instead of `runLoop`; the server then answers each request with this SSE text made
   * from the turn's JSON response (Gemini's stream chunks are whole responses).
   */
  readonly stream?: (responseBody: JsonObject) => string;
}

export interface MediaResultRun {
  readonly result: LoopResult;
  readonly journal: InMemoryJournal;
  /** The requests exactly as they reached the server. */
  readonly requests: readonly RecordedWireRequest[];
  /** Their bodies, parsed. */
  readonly bodies: readonly JsonObject[];
}

/** The default limit the oversized image exceeds, as the refusal names it. */
export const MEDIA_RESULT_IMAGE_LIMIT = DEFAULT_MAX_IMAGE_BYTES;

/**
 * Plays the media-result scenario through the real adapter and SDK against a recording server (which
 * keeps every body byte for byte): what the adapter sent is in `requests`, what the run did in `result`
 * and `journal`. The responses are synthetic, in the protocol's wire shape (see the conformance wires).
 */
export async function runMediaResultScenario(options: MediaResultScenarioOptions): Promise<MediaResultRun> {
  const wire = conformanceWireOf(options.protocol);
  const replies = MEDIA_RESULT_TURNS.map((turn, turnIndex) => {
    const body = wire.responseBody({ scenarioId: 'media_result', turnIndex, turn }) as JsonObject;
    return options.stream === undefined
      ? { contentType: 'application/json', text: JSON.stringify(body) }
      : { contentType: 'text/event-stream', text: options.stream(body) };
  });
  const server = await startRecordingServer((_request, index) => replies[index]);
  try {
    const model = options.createModel({ baseURL: server.url, modelId: wire.model });
    const journal = new InMemoryJournal();
    const loopOptions = {
      model,
      catalogue: createMediaResultCatalogue(),
      session: createSession({ id: 'media-session', humanId: 'media-human', rights: [CAPTURE_RIGHT] }),
      messages: [{ role: 'user' as const, content: 'Capture https://example.test/report.' }],
      journal,
    };
    let result: LoopResult;
    if (options.stream === undefined) result = await runLoop(loopOptions);
    else {
      const stream = streamLoop(loopOptions);
      // Nothing runs until the stream is read.
      for await (const _event of stream);
      result = await stream.result;
    }
    return {
      result,
      journal,
      requests: [...server.requests],
      bodies: server.requests.map((request) => JSON.parse(request.text) as JsonObject),
    };
  } finally {
    await server.close();
  }
}

/**
 * What is wrong with a media-result run, for a backend whose converter follows `coverage` (empty: nothing).
 * Checks that the run went on past the oversized image (an `isError` result naming the limit), that each
 * binary part's base64 text is in the next request exactly once (native or moved) or not at all
 * (placeholder), that the recorded changes are the coverage table's, and that the journal holds digests,
 * media types and sizes, never the bytes.
 */
export function mediaResultProblems(run: MediaResultRun, coverage: ResultCoverageTable): string[] {
  const problems: string[] = [];
  if (run.result.status !== 'completed') problems.push(`the run ended ${run.result.status}, expected completed`);
  if (run.requests.length !== 2) problems.push(`${run.requests.length} requests, expected 2`);
  const reply = run.result.messages.find((message): message is ToolMessage => message.role === 'tool');
  const [page, fullPage] = reply?.content ?? [];
  if (page === undefined || fullPage === undefined) return [...problems, 'no tool reply with two results'];
  if (page.isError) problems.push('capture_page came back as an error');
  const refusal = typeof fullPage.content === 'string' ? fullPage.content : JSON.stringify(fullPage.content);
  if (!fullPage.isError || !refusal.includes(String(MEDIA_RESULT_IMAGE_LIMIT)) || !refusal.includes('maxImageBytes')) {
    problems.push(
      `capture_full_page: expected an isError result naming the ${MEDIA_RESULT_IMAGE_LIMIT}-byte limit, got ${refusal}`,
    );
  }
  const sent = run.requests[1]?.text ?? '';
  const expectations: [string, string, 'image-data' | 'pdf-data'][] = [
    ['PNG', SYNTHETIC_PNG_BASE64, 'image-data'],
    ['PDF', SYNTHETIC_PDF_BASE64, 'pdf-data'],
  ];
  for (const [label, base64, kind] of expectations) {
    const count = sent.split(base64).length - 1;
    const expected = coverage[kind] === 'placeholder' ? 0 : 1;
    if (count !== expected) problems.push(`the ${label}'s base64 is in request 2 ${count} times, expected ${expected}`);
  }
  if (sent.length > 1024 * 1024) problems.push(`request 2 is ${sent.length} bytes: the oversized image was sent`);
  const changes = resultContentChangesOf(page).map((change) => `${change.index}:${change.part}:${change.kind}`);
  const expectedChanges = (
    [
      [1, 'image-data'],
      [2, 'pdf-data'],
    ] as const
  )
    .filter(([, kind]) => coverage[kind] !== 'native')
    .map(([index, kind]) => `${index}:${kind}:${coverage[kind]}`);
  if (changes.join() !== expectedChanges.join()) {
    problems.push(`recorded changes [${changes.join(', ')}], expected [${expectedChanges.join(', ')}]`);
  }
  problems.push(...journalProblems(run.journal));
  return problems;
}

function journalProblems(journal: InMemoryJournal): string[] {
  const problems: string[] = [];
  const text = JSON.stringify(journal.entries);
  if (text.includes(SYNTHETIC_PNG_BASE64) || text.includes(SYNTHETIC_PDF_BASE64)) {
    problems.push('the journal holds the bytes of a binary part');
  }
  const page = journal.entries.find((entry) => entry.toolName === 'capture_page');
  const media = (page?.outputMedia ?? []).map((part) => `${part.mediaType}:${part.bytes}:${part.sha256}`);
  const expected = [
    `image/png:${SYNTHETIC_PNG.byteLength}:${sha256(SYNTHETIC_PNG)}`,
    `application/pdf:${SYNTHETIC_PDF.byteLength}:${sha256(SYNTHETIC_PDF)}`,
  ];
  if (media.join() !== expected.join()) {
    problems.push(`journal media [${media.join(', ')}], expected [${expected.join(', ')}]`);
  }
  const fullPage = journal.entries.find((entry) => entry.toolName === 'capture_full_page');
  if (fullPage?.verdict !== 'failed' || !(fullPage.detail ?? '').includes(String(MEDIA_RESULT_IMAGE_LIMIT))) {
    problems.push('the journal does not record the oversized image as a failure naming the limit');
  }
  return problems;
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
