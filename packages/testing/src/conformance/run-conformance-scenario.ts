import { InMemoryJournal, type LoopResult, type Model, runLoop } from '@toolcircuit/core';
import type { Cassette, CassetteProtocol } from '../cassettes/cassette.js';
import { type ReplayMismatch, startReplayServer } from '../replay/replay-server.js';
import { loadConformanceCassette } from './conformance-cassette.js';
import {
  CONFORMANCE_TOOL_NAMES,
  createConformanceCatalogue,
  createConformanceSession,
} from './conformance-catalogue.js';
import { argumentStyleOf, type ConformanceScenario } from './conformance-scenario.js';
import type { ConformanceWire } from './conformance-wire.js';
import { conformanceWireOf } from './conformance-wires.js';
import { type NeutralTrace, neutralTrace } from './neutral-trace.js';

/** An adapter under test: the protocol it speaks, and how to point it at the replay server. */
export interface ConformanceBackend {
  readonly protocol: CassetteProtocol;
  /**
   * Builds the model. `baseURL` is the replay server's root (`http://127.0.0.1:PORT`): add what the SDK
   * expects after it (`/v1` for openai). `modelId` is the cassette's (Gemini paths contain it).
   */
  readonly createModel: (server: { readonly baseURL: string; readonly modelId: string }) => Model;
}

export interface ConformanceScenarioOptions extends ConformanceBackend {
  readonly scenario: ConformanceScenario;
  /** Default: the committed cassette for this protocol and scenario. */
  readonly cassette?: Cassette;
}

export interface ConformanceRun {
  readonly trace: NeutralTrace;
  /** The scenario's expectation for this protocol's argument style. */
  readonly expected: NeutralTrace;
  readonly mismatches: readonly ReplayMismatch[];
  /** Interactions the run did not consume. */
  readonly remaining: number;
  /**
   * What is wrong in what the adapter sent: the tools declared on the first request, then on each later
   * request where and how the previous turn's results were placed. Empty when everything is right.
   */
  readonly requestProblems: readonly string[];
}

/**
 * Plays one scenario through `runLoop` with the real adapter over HTTP against the replay server, then
 * returns its neutral trace and what the server saw. The run's own errors (a mismatch the SDK reports as
 * a provider error) are rethrown with the server's mismatch reasons added.
 */
export async function runConformanceScenario(options: ConformanceScenarioOptions): Promise<ConformanceRun> {
  const { protocol, scenario } = options;
  const wire = conformanceWireOf(protocol);
  const cassette = options.cassette ?? loadConformanceCassette(protocol, scenario.id);
  const server = await startReplayServer(cassette);
  try {
    const model = options.createModel({ baseURL: server.url, modelId: cassette.model ?? wire.model });
    const journal = new InMemoryJournal();
    let result: LoopResult;
    try {
      result = await runLoop({
        model,
        catalogue: createConformanceCatalogue(),
        session: createConformanceSession(),
        system: scenario.system,
        messages: [{ role: 'user', content: scenario.prompt }],
        journal,
        ...(scenario.maxTurns === undefined ? {} : { maxTurns: scenario.maxTurns }),
      });
    } catch (error) {
      const reasons = server.mismatches.map((mismatch) => `#${mismatch.index + 1}: ${mismatch.reason}`);
      const detail = reasons.length === 0 ? '' : ` (replay mismatches: ${reasons.join('; ')})`;
      throw new Error(`conformance ${scenario.id} on ${protocol}: the run failed: ${String(error)}${detail}`, {
        cause: error,
      });
    }
    const expected = scenario.expected[argumentStyleOf(protocol)];
    return {
      trace: neutralTrace(result, journal),
      expected,
      mismatches: [...server.mismatches],
      remaining: server.remaining,
      requestProblems: requestProblems(
        wire,
        scenario,
        expected,
        server.received.map((request) => request.body),
      ),
    };
  } finally {
    await server.close();
  }
}

function requestProblems(
  wire: ConformanceWire,
  scenario: ConformanceScenario,
  expected: NeutralTrace,
  bodies: readonly Parameters<ConformanceWire['replyProblems']>[0][],
): string[] {
  const problems: string[] = [];
  const declared = wire.declaredToolNames(bodies[0]);
  if (declared.join() !== CONFORMANCE_TOOL_NAMES.join()) {
    problems.push(`request 1 declares tools [${declared.join(', ')}], expected [${CONFORMANCE_TOOL_NAMES.join(', ')}]`);
  }
  bodies.forEach((body, index) => {
    const turnIndex = index - 1;
    const turn = scenario.turns[turnIndex];
    if (turn === undefined) return;
    const results = expected.turns[turnIndex]?.results ?? [];
    for (const problem of wire.replyProblems(body, { scenarioId: scenario.id, turnIndex, turn }, results)) {
      problems.push(`request ${index + 1}: ${problem}`);
    }
  });
  return problems;
}
