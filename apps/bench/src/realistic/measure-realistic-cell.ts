import { fileURLToPath } from 'node:url';
import {
  createCatalogue,
  createSession,
  defineTool,
  type JsonSchemaObject,
  type LoopOptions,
  type Model,
  type ModelTurn,
  runLoop,
  type ToolCallPart,
} from '@toolcircuit/core';
import { Ajv, type ValidateFunction } from 'ajv';
import { spawnNode } from '../measure/spawn-node.js';
import { median } from '../measure/stats.js';
import {
  TICKET_TOOL_DESCRIPTION,
  TICKET_TOOL_NAME,
  TICKETS_RIGHT,
  type TicketUpdate,
  ticketArguments,
  ticketJsonSchema,
  updateTicket,
} from './ticket-tool.js';

/** The configurations timed: the floor, `runLoop` at its defaults, and the same with one default changed. */
export type RealisticSystem = 'floor' | 'defaults' | 'runId' | 'noProvenance' | 'runIdNoProvenance';
export const REALISTIC_SYSTEMS: readonly RealisticSystem[] = [
  'floor',
  'defaults',
  'runId',
  'noProvenance',
  'runIdNoProvenance',
];

export interface RealisticCell {
  readonly calls: number;
  readonly steps: number;
  /** Fresh processes per configuration (one after the other, the order rotated each round). */
  readonly rounds: number;
  /**
   * Runs each process plays, timed one by one from its first: the first `coldRuns` are the cold figure, the
   * last `steadyRuns` the steady state.
   */
  readonly runs: number;
  readonly coldRuns: number;
  readonly steadyRuns: number;
  /** Mean length of one call's arguments (JSON text), in characters. */
  readonly argumentChars: number;
  /** Steady state: CPU µs per call, the median of each process's last `steadyRuns` runs, median over rounds. */
  readonly warmUs: Readonly<Record<RealisticSystem, number>>;
  /** From a cold start: CPU µs per call over a fresh process's first `coldRuns` runs, median over rounds. */
  readonly coldUs: Readonly<Record<RealisticSystem, number>>;
}

/** What one child process reports: CPU µs per call of each run, in order. */
export interface RealisticChildReport {
  readonly cpuUs: readonly number[];
}

const CHILD = fileURLToPath(new URL('./realistic-child.js', import.meta.url));

/** What each configuration is, for the report. */
export const REALISTIC_LABELS: Readonly<Record<RealisticSystem, string>> = {
  floor:
    'hand-written floor (JSON.parse, an ajv validator compiled once from the same schema with core’s options, the tool, results appended)',
  defaults: '`runLoop`, every option at its default (generated run id, provenance on)',
  runId: '`runLoop` with `runId` given',
  noProvenance: '`runLoop` with `provenance: false`',
  runIdNoProvenance: '`runLoop` with `runId` given and `provenance: false`',
};

/**
 * The realistic cell: one tool of six required properties (see `ticket-tool.ts`), arguments of about 190
 * characters of JSON text per call that the model's side parses (as an adapter parses the wire's), an async
 * tool returning a short string, a session holding the tool's right, no `runId` and every other option at its
 * default; K calls per turn for S turns. Beside it the hand-written floor doing the same unavoidable work
 * (parse, validate with an ajv validator compiled once from the same schema with the options core compiles
 * with, call the tool, append the results) and `runLoop` with one default changed (a given `runId`, no
 * provenance), to show where a difference comes from.
 *
 * Each configuration runs alone in a fresh process, as an application does (and as an outside harness
 * measures): `runs` conversations timed one by one from the first, no warm-up. The first `coldRuns` give
 * the cold figure (JIT compilation included, on every thread: CPU time of the process); the median of the
 * last `steadyRuns` the steady state, which the goal judges. toolcircuit's code reaches it late: V8 still
 * compiles its functions with TurboFan (on a background thread, counted here) through its first 50,000 or
 * so calls, where the floor's few functions are compiled within its first two runs. Processes run one after the
 * other, the order rotated each round; medians over rounds.
 */
export async function measureRealisticCell(options: {
  readonly rounds: number;
  readonly runs?: number;
  readonly coldRuns?: number;
  readonly steadyRuns?: number;
  readonly cwd: string;
  readonly log: (line: string) => void;
}): Promise<RealisticCell> {
  const calls = 8;
  const steps = 100;
  const runs = options.runs ?? 100;
  const coldRuns = options.coldRuns ?? 10;
  const steadyRuns = options.steadyRuns ?? 30;
  const turns = realisticTurns(calls, steps);
  const characters = turns.reduce((sum, turn) => sum + turn.reduce((chars, text) => chars + text.length, 0), 0);
  const warm = Object.fromEntries(REALISTIC_SYSTEMS.map((system) => [system, [] as number[]])) as Record<
    RealisticSystem,
    number[]
  >;
  const cold = Object.fromEntries(REALISTIC_SYSTEMS.map((system) => [system, [] as number[]])) as Record<
    RealisticSystem,
    number[]
  >;
  for (let round = 0; round < options.rounds; round += 1) {
    for (let index = 0; index < REALISTIC_SYSTEMS.length; index += 1) {
      const system = REALISTIC_SYSTEMS[(index + round) % REALISTIC_SYSTEMS.length] as RealisticSystem;
      const { stdout } = await spawnNode([CHILD, system, String(runs)], options.cwd);
      const report = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as RealisticChildReport;
      const firstRuns = report.cpuUs.slice(0, coldRuns);
      cold[system].push(firstRuns.reduce((sum, value) => sum + value, 0) / firstRuns.length);
      warm[system].push(median(report.cpuUs.slice(-steadyRuns)));
    }
    options.log(`  realistic cell: round ${round + 1}/${options.rounds}`);
  }
  const medians = (figures: Record<RealisticSystem, number[]>) =>
    Object.fromEntries(REALISTIC_SYSTEMS.map((system) => [system, median(figures[system])])) as Record<
      RealisticSystem,
      number
    >;
  return {
    calls,
    steps,
    rounds: options.rounds,
    runs,
    coldRuns,
    steadyRuns,
    argumentChars: characters / (calls * steps),
    warmUs: medians(warm),
    coldUs: medians(cold),
  };
}

/** The model's calls: `steps` turns of `calls` arguments texts each. */
export function realisticTurns(calls: number, steps: number): string[][] {
  return Array.from({ length: steps }, (_, step) =>
    Array.from({ length: calls }, (_, call) => ticketArguments(step * calls + call)),
  );
}

/** One function per configuration, each playing the whole conversation once and checking it ran every call. */
export function realisticPlayers(turns: readonly (readonly string[])[]): Record<RealisticSystem, () => Promise<void>> {
  const total = turns.reduce((sum, turn) => sum + turn.length, 0);
  let runs = 0;
  const catalogue = createCatalogue([
    defineTool({
      name: TICKET_TOOL_NAME,
      description: TICKET_TOOL_DESCRIPTION,
      inputSchema: ticketJsonSchema() as JsonSchemaObject,
      right: TICKETS_RIGHT,
      run: (input) => {
        runs += 1;
        return updateTicket(input as unknown as TicketUpdate);
      },
    }),
  ]);
  const session = createSession({ id: 'bench-session', humanId: 'bench-user', rights: [TICKETS_RIGHT] });
  const circuit = (extra: Partial<LoopOptions>) => async (): Promise<void> => {
    runs = 0;
    const result = await runLoop({
      model: modelOf(turns),
      catalogue,
      session,
      messages: [{ role: 'user', content: 'Triage the open tickets.' }],
      maxTurns: turns.length + 1,
      ...extra,
    });
    if (result.status !== 'completed' || runs !== total) throw new Error(`runLoop ran ${runs} of ${total} calls`);
  };
  return {
    floor: floorOf(turns),
    defaults: circuit({}),
    runId: circuit({ runId: 'bench-run' }),
    noProvenance: circuit({ provenance: false }),
    runIdNoProvenance: circuit({ runId: 'bench-run', provenance: false }),
  };
}

const usage = { inputTokens: 10, outputTokens: 10, totalTokens: 20 };

/** The model's side: each turn's calls, their JSON text parsed as an adapter parses what the wire carries. */
function modelOf(turns: readonly (readonly string[])[]): Model {
  let step = 0;
  return {
    provider: 'bench',
    modelId: 'bench-scripted',
    async generate(): Promise<ModelTurn> {
      const texts = turns[step];
      const turn = step;
      step += 1;
      if (texts === undefined) {
        return {
          content: [{ type: 'text', text: 'Done.' }],
          stopReason: { unified: 'end_turn', raw: 'end_turn' },
          usage,
        };
      }
      const content: ToolCallPart[] = texts.map((text, index) => ({
        type: 'tool_call',
        id: `call_${turn}_${index}`,
        name: TICKET_TOOL_NAME,
        input: JSON.parse(text) as unknown,
      }));
      return { content, stopReason: { unified: 'tool_calls', raw: 'tool_use' }, usage };
    },
  };
}

type FloorMessage =
  | { readonly role: 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly calls: readonly { readonly id: string; readonly arguments: string }[] }
  | { readonly role: 'tool'; readonly results: readonly { id: string; content: string; isError: boolean }[] };

/**
 * The floor: the least a correct loop does with this tool. Parse each call's arguments, validate them with
 * an ajv validator compiled once from the same schema (core's options: `strict: false, allErrors: true,
 * verbose: true`), run the tool, append one result per call, ask again; every call of a turn at once.
 */
function floorOf(turns: readonly (readonly string[])[]): () => Promise<void> {
  const ajv = new Ajv({ strict: false, allErrors: true, verbose: true, logger: false });
  const validate: ValidateFunction = ajv.compile(ticketJsonSchema());
  const total = turns.reduce((sum, turn) => sum + turn.length, 0);
  return async () => {
    let runs = 0;
    const messages: FloorMessage[] = [{ role: 'user', content: 'Triage the open tickets.' }];
    const answer = async (call: { readonly id: string; readonly arguments: string }) => {
      const input: unknown = JSON.parse(call.arguments);
      if (!validate(input)) return { id: call.id, content: ajv.errorsText(validate.errors), isError: true };
      runs += 1;
      return { id: call.id, content: await updateTicket(input as TicketUpdate), isError: false };
    };
    for (let step = 0; ; step += 1) {
      // Awaited like a real model call, as toolcircuit's model is.
      const texts = await Promise.resolve(turns[step]);
      if (texts === undefined) break;
      const calls = texts.map((text, index) => ({ id: `call_${step}_${index}`, arguments: text }));
      messages.push({ role: 'assistant', calls });
      messages.push({ role: 'tool', results: await Promise.all(calls.map(answer)) });
    }
    if (runs !== total) throw new Error(`the floor ran ${runs} of ${total} calls`);
  };
}
