import {
  InMemoryJournal,
  type JsonObject,
  type JsonValue,
  jsonDigest,
  type LoopResult,
  type Model,
  runLoop,
  streamLoop,
} from '@toolcircuit/core';
import type { Cassette } from '../cassettes/cassette.js';
import { loadCassette } from '../cassettes/load-cassette.js';
import { type ReplayMismatch, startReplayServer } from '../replay/replay-server.js';
import { conformanceCassettesDirectory } from './conformance-cassette.js';
import {
  CONFORMANCE_TOOL_NAMES,
  createConformanceCatalogue,
  createConformanceSession,
} from './conformance-catalogue.js';
import { conformanceWireOf } from './conformance-wires.js';
import {
  CASE_FILE_ANSWER,
  CASE_FILE_OUTPUT_SCHEMA,
  CORRECTION_PROBLEM,
  REFUSAL_TEXT,
  type StructuredOutputScenario,
  type StructuredOutputVariant,
  structuredOutputCassetteName,
  wireTurn,
} from './structured-output-scenario.js';
import { formatProblems, lastMessageTexts } from './structured-output-wire.js';

const ANSWER_NAME = 'final_answer';
const SYSTEM = 'Tu aides un greffier à consulter ses dossiers. Réponds avec la fiche du dossier.';
// The tool's answer as the model receives it (see conformance-catalogue.ts).
const LOOKUP_RESULT = '{"numero":"A-1234","titre":"Dupont c. Martin","statut":"ouvert"}';

export interface StructuredOutputRunOptions {
  readonly variant: StructuredOutputVariant;
  readonly scenario: StructuredOutputScenario;
  /** Builds the adapter over the replay server (`baseURL` its root; add `/v1` for OpenAI). */
  readonly createModel: (server: { readonly baseURL: string; readonly modelId: string }) => Model;
  /**
   * Runs `streamLoop` instead of `runLoop`: each JSON response is served as this SSE text (Gemini's chunks
   * are whole responses, on its streaming path).
   */
  readonly stream?: (responseBody: JsonObject) => string;
  /** Default: the committed cassette of this variant and scenario. */
  readonly cassette?: Cassette;
}

export interface StructuredOutputRun {
  readonly result: LoopResult;
  /** Whether the run was streamed (`streamLoop`). */
  readonly streamed: boolean;
  /** The `output-partial` events of a streamed run, in order. */
  readonly partials: readonly JsonObject[];
  readonly journal: InMemoryJournal;
  /** The request bodies the replay server received, parsed. */
  readonly bodies: readonly (JsonValue | undefined)[];
  readonly mismatches: readonly ReplayMismatch[];
  readonly remaining: number;
}

/**
 * The loop options of a structured-output scenario's run, besides the model: the conformance catalogue and
 * session, the case file's schema as `output`, and the prompt.
 */
export function structuredOutputLoopOptions(prompt: string) {
  return {
    catalogue: createConformanceCatalogue(),
    session: createConformanceSession(),
    system: SYSTEM,
    messages: [{ role: 'user' as const, content: prompt }],
    output: { schema: CASE_FILE_OUTPUT_SCHEMA },
  };
}

/** Reads a committed structured-output cassette. */
export function loadStructuredOutputCassette(
  variant: StructuredOutputVariant,
  scenario: StructuredOutputScenario,
): Cassette {
  return loadCassette(structuredOutputCassetteName(variant, scenario.id), {
    directory: conformanceCassettesDirectory(),
  });
}

/**
 * Plays one structured-output scenario through the real adapter and SDK against the replay server: a run
 * with the case file's schema as `output`, over the conformance catalogue.
 */
export async function runStructuredOutputScenario(options: StructuredOutputRunOptions): Promise<StructuredOutputRun> {
  const { variant, scenario } = options;
  const recorded = options.cassette ?? loadStructuredOutputCassette(variant, scenario);
  const cassette = options.stream === undefined ? recorded : streamedCassette(recorded, options.stream);
  const server = await startReplayServer(cassette);
  try {
    const model = options.createModel({ baseURL: server.url, modelId: variant.model });
    const journal = new InMemoryJournal();
    const loop = { model, journal, ...structuredOutputLoopOptions(scenario.prompt) };
    const partials: JsonObject[] = [];
    let result: LoopResult;
    try {
      if (options.stream === undefined) result = await runLoop(loop);
      else {
        const stream = streamLoop(loop);
        for await (const event of stream) if (event.type === 'output-partial') partials.push(event.partial);
        result = await stream.result;
      }
    } catch (error) {
      const reasons = server.mismatches.map((mismatch) => `#${mismatch.index + 1}: ${mismatch.reason}`);
      throw new Error(
        `${scenario.id} on ${variant.protocol} (${variant.mode}): the run failed: ${String(error)}${reasons.length === 0 ? '' : ` (replay mismatches: ${reasons.join('; ')})`}`,
        { cause: error },
      );
    }
    return {
      result,
      streamed: options.stream !== undefined,
      partials,
      journal,
      bodies: server.received.map((request) => request.body as JsonValue | undefined),
      mismatches: [...server.mismatches],
      remaining: server.remaining,
    };
  } finally {
    await server.close();
  }
}

/** What is wrong with a structured-output run (empty: nothing): the outcome, every request, the journal. */
export function structuredOutputProblems(
  run: StructuredOutputRun,
  variant: StructuredOutputVariant,
  scenario: StructuredOutputScenario,
): string[] {
  const problems: string[] = [];
  const { result, bodies } = run;
  const protocol = variant.protocol;
  if (result.status !== 'completed') problems.push(`status ${result.status}, expected completed`);
  if (scenario.id === 'structured_refusal') {
    // Gemini has no refusal of its own: its safety filter blocks the answer, with no text.
    const expected =
      protocol === 'gemini' ? { reason: 'content_filter', text: '' } : { reason: 'refusal', text: REFUSAL_TEXT };
    if (JSON.stringify(result.refusal) !== JSON.stringify(expected)) {
      problems.push(`refusal ${JSON.stringify(result.refusal)}, expected ${JSON.stringify(expected)}`);
    }
    if (result.output !== undefined) problems.push('a refused run has an output');
  } else {
    if (JSON.stringify(result.output) !== JSON.stringify(CASE_FILE_ANSWER)) {
      problems.push(`output ${JSON.stringify(result.output)}, expected ${JSON.stringify(CASE_FILE_ANSWER)}`);
    }
    if (result.refusal !== undefined) problems.push('an answered run has a refusal');
  }
  if (bodies.length !== scenario.turns.length)
    problems.push(`${bodies.length} requests, expected ${scenario.turns.length}`);
  const tools = variant.mode === 'tool' ? [...CONFORMANCE_TOOL_NAMES, ANSWER_NAME] : [...CONFORMANCE_TOOL_NAMES];
  const wire = conformanceWireOf(protocol);
  bodies.forEach((body, index) => {
    const answerNow = scenario.id === 'structured_correction' && index === 1;
    for (const problem of formatProblems(body, { protocol, mode: variant.mode, name: ANSWER_NAME, answerNow })) {
      problems.push(`request ${index + 1}: ${problem}`);
    }
    const declared = wire.declaredToolNames(body);
    if (declared.join() !== tools.join()) {
      problems.push(`request ${index + 1} declares [${declared.join(', ')}], expected [${tools.join(', ')}]`);
    }
  });
  if (scenario.id === 'structured_answer') {
    const previous = {
      scenarioId: `${scenario.id}.${variant.mode}`,
      turnIndex: 0,
      turn: wireTurn(variant, scenario.turns[0] as never, ANSWER_NAME),
    };
    for (const problem of wire.replyProblems(bodies[1], previous, [{ isError: false, text: LOOKUP_RESULT }])) {
      problems.push(`request 2: ${problem}`);
    }
    const digests = run.journal.entries.map((entry) => entry.outputSchemaDigest);
    if (digests.join() !== jsonDigest(CASE_FILE_OUTPUT_SCHEMA)) {
      problems.push(`journal output schema digests [${digests.join(', ')}], expected the answer schema's`);
    }
  }
  if (
    scenario.id === 'structured_correction' &&
    !lastMessageTexts(protocol, bodies[1]).some((text) => text.includes(CORRECTION_PROBLEM))
  ) {
    problems.push(`request 2's last message does not carry the correction (${CORRECTION_PROBLEM})`);
  }
  if (run.streamed && scenario.id !== 'structured_refusal') {
    // The answer shows on the event stream (field by field where the provider streams it so); its last preview
    // holds the answer's fields.
    const last = run.partials.at(-1);
    const shown = ['numero', 'titre', 'statut'].map((key) => last?.[key]);
    if (JSON.stringify(shown) !== JSON.stringify(['A-1234', 'Dupont c. Martin', 'ouvert'])) {
      problems.push(`the last partial output is ${JSON.stringify(last)}, not the answer's fields`);
    }
    if (run.partials.length === 0) problems.push('no partial output on the event stream');
  }
  if (run.mismatches.length > 0)
    problems.push(...run.mismatches.map((mismatch) => `replay mismatch: ${mismatch.reason}`));
  if (run.remaining !== 0) problems.push(`${run.remaining} interactions left unserved`);
  return problems;
}

/** The cassette with each JSON response served as the adapter's SSE text, on the streaming path. */
function streamedCassette(cassette: Cassette, stream: (body: JsonObject) => string): Cassette {
  return {
    ...cassette,
    interactions: cassette.interactions.map((interaction) => {
      const body = interaction.response.body;
      if (body?.kind !== 'json') return interaction;
      return {
        request: {
          ...interaction.request,
          path: interaction.request.path.replace(':generateContent', ':streamGenerateContent'),
        },
        response: {
          ...interaction.response,
          headers: { ...interaction.response.headers, 'content-type': 'text/event-stream' },
          body: { kind: 'text', text: stream(body.json as JsonObject) },
        },
      };
    }),
  };
}
