import {
  answeringModelOf,
  confirmationFor,
  createCatalogue,
  createSession,
  defineTool,
  everySession,
  InMemoryJournal,
  type JsonValue,
  type LoopResult,
  runLoop,
  toolCallsOf,
} from '@toolcircuit/core';
import type { Cassette, CassetteProtocol, Interaction } from '../cassettes/cassette.js';
import type { ConformanceTurn } from '../conformance/conformance-scenario.js';
import { conformanceWireOf } from '../conformance/conformance-wires.js';
import type { ConformanceBackend } from '../conformance/run-conformance-scenario.js';
import { syntheticToken } from '../conformance/synthetic-token.js';
import { FAULT_WIRES } from '../faults/fault-wire.js';
import { startReplayServer } from '../replay/replay-server.js';
import { type ExpectedCall, foreignHistoryProblems } from './foreign-history-problems.js';

const SCENARIO_ID = 'fallback_pair';
const HUMAN = 'fallback-human';
const PAYMENT = { ref: 'R-1', montant: 120 };

/** The primary's turn: a lookup and an irreversible payment (approved beforehand), in one turn. */
const FIRST: ConformanceTurn = {
  calls: [
    { name: 'consulter', arguments: { ref: 'R-1' } },
    { name: 'payer', arguments: PAYMENT },
  ],
};
/** The secondary's answer to turn 2, the one the primary failed. */
const FINAL: ConformanceTurn = { text: 'Invoice R-1 is paid: 120.', calls: [] };

export interface FallbackPairOptions {
  readonly primary: ConformanceBackend;
  readonly secondary: ConformanceBackend;
  /**
   * The primary thinks before its calls, with what only it can read back: a signed Anthropic thinking block,
   * or an OpenAI Responses reasoning item with encrypted content (other protocols: as without).
   */
  readonly reasoning?: boolean;
}

export interface FallbackPairOutcome {
  readonly result: LoopResult;
  /** Every execution of a tool, as `name ref`, in order. */
  readonly executions: readonly string[];
  /** Which model answered each turn (`provider:member`), and the HTTP status each turn fell over from. */
  readonly answeredBy: readonly string[];
  /** What is wrong with the request the secondary was sent (empty: nothing). */
  readonly secondaryProblems: readonly string[];
  /** Interactions of either cassette left unserved, and requests that matched none. */
  readonly unserved: number;
  readonly mismatches: number;
  /** The journal's notes of which model answered each turn, as `turn provider`. */
  readonly notes: readonly string[];
}

/**
 * One run across two backends, through their SDKs over real HTTP to two replay servers: the primary answers
 * turn 1 with two calls (one irreversible, approved), then fails turn 2 with HTTP 529 (its protocol's own
 * error body); the secondary answers turn 2 from the same run. Synthetic traffic, shaped by the conformance
 * and fault wires. The caller's backends must not retry by themselves (`maxRetries: 0`), so the 529 reaches
 * the loop.
 */
export async function playFallbackPair(options: FallbackPairOptions): Promise<FallbackPairOutcome> {
  const executions: string[] = [];
  const run = (name: string) => (input: Record<string, unknown>) => {
    executions.push(`${name} ${String(input['ref'])}`);
    return name === 'payer' ? `payment ${String(input['ref'])} made` : `invoice ${String(input['ref'])}: 120, unpaid`;
  };
  const refSchema = { type: 'object', properties: { ref: { type: 'string' } }, required: ['ref'] } as const;
  const catalogue = createCatalogue([
    defineTool({
      name: 'consulter',
      description: 'Reads an invoice by its reference.',
      inputSchema: refSchema,
      right: everySession,
      run: run('consulter'),
    }),
    defineTool({
      name: 'payer',
      description: 'Pays an invoice. Irreversible.',
      inputSchema: {
        type: 'object',
        properties: { ref: { type: 'string' }, montant: { type: 'number' } },
        required: ['ref', 'montant'],
      },
      right: everySession,
      irreversible: true,
      run: run('payer'),
    }),
  ]);
  const session = createSession({
    id: 'fallback-session',
    humanId: HUMAN,
    confirmations: [confirmationFor('payer', PAYMENT, { humanId: HUMAN, anyRun: true })],
  });
  const journal = new InMemoryJournal();
  const { primary, secondary } = options;
  const first = await startReplayServer(primaryCassette(primary.protocol, options.reasoning === true));
  const second = await startReplayServer(secondaryCassette(secondary.protocol));
  try {
    const result = await runLoop({
      model: [
        primary.createModel({ baseURL: first.url, modelId: conformanceWireOf(primary.protocol).model }),
        secondary.createModel({ baseURL: second.url, modelId: conformanceWireOf(secondary.protocol).model }),
      ],
      catalogue,
      session,
      journal,
      messages: [{ role: 'user', content: 'Look up invoice R-1 and pay it.' }],
      runId: 'fallback-run',
    });
    const firstTurn = result.turns[0];
    const calls: ExpectedCall[] =
      firstTurn === undefined
        ? []
        : toolCallsOf(firstTurn.content).map((call, index) => ({
            id: call.id,
            name: call.name,
            result: index === 0 ? 'invoice R-1: 120, unpaid' : 'payment R-1 made',
          }));
    const body = second.received[0]?.body as JsonValue | undefined;
    return {
      result,
      executions,
      answeredBy: result.turns.map((turn) => {
        const answering = answeringModelOf(turn);
        const from = answering?.fellBackFrom?.map((failed) => ` after ${failed.provider} ${String(failed.status)}`);
        return `${answering?.provider}:${answering?.member}${from?.join('') ?? ''}`;
      }),
      secondaryProblems:
        body === undefined
          ? ['the secondary was sent nothing']
          : foreignHistoryProblems(secondary.protocol, primary.protocol, body, calls),
      unserved: first.remaining + second.remaining,
      mismatches: first.mismatches.length + second.mismatches.length,
      notes: journal.notes.flatMap((note) =>
        note.kind === 'answering_model' ? [`${note.turn} ${note.provider}`] : [],
      ),
    };
  } finally {
    await first.close();
    await second.close();
  }
}

function answer(protocol: CassetteProtocol, turnIndex: number, turn: ConformanceTurn, body?: JsonValue): Interaction {
  const wire = conformanceWireOf(protocol);
  return {
    request: { method: 'POST', path: wire.path },
    response: {
      status: 200,
      headers: { ...wire.responseHeaders },
      body: { kind: 'json', json: body ?? wire.responseBody({ scenarioId: SCENARIO_ID, turnIndex, turn }) },
    },
  };
}

function primaryCassette(protocol: CassetteProtocol, reasoning: boolean): Cassette {
  const wire = conformanceWireOf(protocol);
  const plain = wire.responseBody({ scenarioId: SCENARIO_ID, turnIndex: 0, turn: FIRST });
  const fault = FAULT_WIRES[protocol].httpError('overloaded', 529);
  return syntheticCassette(protocol, 'the primary: turn 1 with two calls, then HTTP 529 for turn 2', [
    answer(protocol, 0, FIRST, reasoning ? withReasoning(protocol, plain) : plain),
    {
      request: { method: 'POST', path: wire.path },
      response: {
        status: fault.status,
        headers: { 'content-type': 'application/json' },
        body: { kind: 'json', json: JSON.parse(fault.body) as JsonValue },
      },
    },
  ]);
}

function secondaryCassette(protocol: CassetteProtocol): Cassette {
  return syntheticCassette(protocol, 'the secondary: the answer to turn 2', [answer(protocol, 1, FINAL)]);
}

function syntheticCassette(protocol: CassetteProtocol, what: string, interactions: Interaction[]): Cassette {
  return {
    format: 'toolcircuit-cassette/1',
    protocol,
    provenance: {
      kind: 'synthetic',
      note: `Synthetic: ${what} of a run that falls over from one provider to another, written from the conformance and fault wires.`,
    },
    model: conformanceWireOf(protocol).model,
    interactions,
  };
}

/** The turn with reasoning only its provider can read back, where the protocol has such a thing. */
function withReasoning(protocol: CassetteProtocol, body: JsonValue): JsonValue {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const token = (what: string) => syntheticToken(`${SCENARIO_ID}/reasoning/${what}`, 64);
  if (protocol === 'anthropic-messages' && Array.isArray(body['content'])) {
    const thinking = { type: 'thinking', thinking: 'Look the invoice up, then pay it.', signature: token('signature') };
    return { ...body, content: [thinking, ...body['content']] };
  }
  if (protocol === 'openai-responses' && Array.isArray(body['output'])) {
    const item = {
      id: `rs_${syntheticToken(`${SCENARIO_ID}/reasoning/id`, 50, 'hex')}`,
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'Look the invoice up, then pay it.' }],
      encrypted_content: token('encrypted'),
    };
    return { ...body, output: [item, ...body['output']] };
  }
  return body;
}
