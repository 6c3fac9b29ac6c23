import {
  continueLoop,
  createCatalogue,
  createSession,
  defineTool,
  everySession,
  InMemoryJournal,
  type InterruptedRun,
  interruptedRunOfError,
  type LoopResult,
  runLoop,
} from '@toolcircuit/core';
import type { Cassette, CassetteProtocol, Interaction } from '../cassettes/cassette.js';
import type { ConformanceTurn } from '../conformance/conformance-scenario.js';
import { conformanceWireOf } from '../conformance/conformance-wires.js';
import type { ConformanceBackend } from '../conformance/run-conformance-scenario.js';
import { startReplayServer } from '../replay/replay-server.js';
import { FAULT_WIRES } from './fault-wire.js';

/** The five turns: calls on turns 1 to 4 (turn 3 fails the first time it is asked for), then the answer. */
const TURNS: readonly ConformanceTurn[] = [
  {
    calls: [
      { name: 'payer', arguments: { ref: 'R-1' } },
      { name: 'payer', arguments: { ref: 'R-2' } },
    ],
  },
  { calls: [{ name: 'payer', arguments: { ref: 'R-3' } }] },
  { calls: [{ name: 'payer', arguments: { ref: 'R-4' } }] },
  { calls: [{ name: 'payer', arguments: { ref: 'R-5' } }] },
  { text: 'All five payments are made.', calls: [] },
];
const FAILING_TURN = 3;
const SCENARIO_ID = 'interrupted_run';

/** What an interrupted-and-continued run gave. */
export interface InterruptedRunOutcome {
  /** The state the failure left on the error (`undefined`: the error carried none). */
  readonly interrupted: InterruptedRun | undefined;
  /** What the first run rejected with. */
  readonly error: unknown;
  readonly result: LoopResult;
  /** Every execution of the payment tool, by reference, in order. */
  readonly executions: readonly string[];
  /** Interactions of either cassette left unserved, and requests that matched none. */
  readonly unserved: number;
  readonly mismatches: number;
}

/**
 * Plays a five-turn run of an irreversible-looking tool through the real adapter over HTTP: the provider
 * answers turns 1 and 2, then fails turn 3 with an HTTP 500 (the protocol's own error body); the run is
 * continued with `continueLoop` from the state on the error, after a round trip through JSON, against a
 * second server that answers turns 3 to 5. Every payment must have run exactly once. Synthetic traffic,
 * shaped by the conformance wires.
 */
export async function playInterruptedRun(backend: ConformanceBackend): Promise<InterruptedRunOutcome> {
  const executions: string[] = [];
  const catalogue = createCatalogue([
    defineTool({
      name: 'payer',
      description: 'Makes one payment by its reference. Never make the same payment twice.',
      inputSchema: { type: 'object', properties: { ref: { type: 'string' } }, required: ['ref'] },
      right: everySession,
      run: ({ ref }) => {
        executions.push(ref);
        return `payment ${ref} made`;
      },
    }),
  ]);
  const session = createSession({ id: 'interrupted-session', humanId: 'interrupted-human' });
  const journal = new InMemoryJournal();
  const wire = conformanceWireOf(backend.protocol);
  const first = await startReplayServer(cassetteOf(backend.protocol, [0, 1], true));
  let error: unknown;
  try {
    await runLoop({
      model: backend.createModel({ baseURL: first.url, modelId: wire.model }),
      catalogue,
      session,
      journal,
      messages: [{ role: 'user', content: 'Make payments R-1 to R-5.' }],
      runId: 'interrupted-run',
    });
  } catch (caught) {
    error = caught;
  }
  const firstLeft = first.remaining;
  const firstMismatches = first.mismatches.length;
  await first.close();
  const interrupted = interruptedRunOfError(error);
  const stored = interrupted === undefined ? undefined : (JSON.parse(JSON.stringify(interrupted)) as InterruptedRun);
  const second = await startReplayServer(cassetteOf(backend.protocol, [2, 3, 4], false));
  try {
    if (stored === undefined) throw new Error(`the first run did not stop with an interrupted state: ${String(error)}`);
    const model = backend.createModel({ baseURL: second.url, modelId: wire.model });
    const result = await continueLoop(stored, { model, catalogue, session, journal });
    return {
      interrupted,
      error,
      result,
      executions,
      unserved: firstLeft + second.remaining,
      mismatches: firstMismatches + second.mismatches.length,
    };
  } finally {
    await second.close();
  }
}

/** The answers to the given turns (0-based), then, when `fail`, the protocol's HTTP 500 for the next one. */
function cassetteOf(protocol: CassetteProtocol, turnIndexes: readonly number[], fail: boolean): Cassette {
  const wire = conformanceWireOf(protocol);
  const interactions: Interaction[] = turnIndexes.map((turnIndex) => ({
    request: { method: 'POST', path: wire.path },
    response: {
      status: 200,
      headers: { ...wire.responseHeaders },
      body: {
        kind: 'json',
        json: wire.responseBody({ scenarioId: SCENARIO_ID, turnIndex, turn: TURNS[turnIndex] as ConformanceTurn }),
      },
    },
  }));
  if (fail) {
    const fault = FAULT_WIRES[protocol].httpError('server_error');
    interactions.push({
      request: { method: 'POST', path: wire.path },
      response: {
        status: fault.status,
        headers: { 'content-type': 'application/json' },
        body: { kind: 'json', json: JSON.parse(fault.body) },
      },
    });
  }
  return {
    format: 'toolcircuit-cassette/1',
    protocol,
    provenance: {
      kind: 'synthetic',
      note: `Synthetic: a five-turn run whose turn ${FAILING_TURN} first fails with an HTTP 500, written from the conformance wires.`,
    },
    model: wire.model,
    interactions,
  };
}
