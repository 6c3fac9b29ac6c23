import { Ajv, type ValidateFunction } from 'ajv';
import { lookUpOrders, lookUpOrdersAsync, type OrderLookupInput, orderJsonSchema } from '../scenario/order-tool.js';
import type { Script, ScriptedToolCall } from '../scenario/scenario.js';
import { type BenchSystem, type PreparedRun, StepClock } from './bench-system.js';
import { FloorJournal } from './floor-journal.js';
import { type ToolMode, toolModeSuffix } from './tool-mode.js';

interface FloorResult {
  readonly id: string;
  readonly content: string;
  readonly isError: boolean;
}

type FloorEvent =
  | { readonly type: 'turn'; readonly calls: number }
  | { readonly type: 'tool-call'; readonly call: ScriptedToolCall }
  | { readonly type: 'tool-result'; readonly result: FloorResult };

type FloorMessage =
  | { readonly role: 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly calls: readonly ScriptedToolCall[]; readonly text?: string }
  | {
      readonly role: 'tool';
      readonly results: readonly FloorResult[];
    };

/**
 * The floor: the least a correct loop can do. Parse each call's arguments, validate them with an ajv
 * validator compiled once, run the tool, append one result per call, ask again. No rights, no journal,
 * no digests, no timeouts: whatever a harness spends above this is its own cost. With `journal`, it also
 * keeps the least journal an audit can check (see {@link FloorJournal}), the peer of toolcircuit's; the
 * plain floor's own code is left as it is (no flag tested per call).
 *
 * With an `async` tool it is the usual `await Promise.all(calls.map(async (call) => …))` loop: every call
 * of a turn runs at once, each awaiting its tool.
 */
export function handWrittenSystem(
  tool: ToolMode = 'sync',
  options: { readonly journal?: boolean; readonly loop?: 'run' | 'stream' } = {},
): BenchSystem {
  const journaled = options.journal === true;
  const streaming = options.loop === 'stream';
  return {
    id: 'hand-written',
    label: `hand-written loop${journaled ? ' + journal' : ''}${streaming ? ' + stream' : ''}${toolModeSuffix(tool)}`,
    spec: {
      id: 'hand-written',
      tool,
      ...(journaled ? { journal: true } : {}),
      ...(streaming ? { loop: 'stream' as const } : {}),
    },
    validation: 'ajv validator compiled once per tool from the same JSON Schema, called on every input',
    async prepare(script: Script): Promise<PreparedRun> {
      const counter = { runs: 0 };
      const ajv = new Ajv();
      const validators = new Map<string, ValidateFunction>();
      for (const name of script.toolNames) validators.set(name, ajv.compile(orderJsonSchema()));
      const clock = new StepClock();
      const model = (): { readonly calls: readonly ScriptedToolCall[]; readonly text?: string } => {
        const calls = script.turns[clock.stamp()];
        return calls === undefined ? { calls: [], text: script.finalText } : { calls };
      };
      const answerNow = (call: ScriptedToolCall): FloorResult => {
        const validate = validators.get(call.toolName);
        if (validate === undefined) return { id: call.id, content: `Unknown tool ${call.toolName}`, isError: true };
        const input: unknown = JSON.parse(call.arguments);
        if (!validate(input)) return { id: call.id, content: ajv.errorsText(validate.errors), isError: true };
        counter.runs += 1;
        return { id: call.id, content: JSON.stringify(lookUpOrders(input as OrderLookupInput)), isError: false };
      };
      const answerLater = async (call: ScriptedToolCall): Promise<FloorResult> => {
        const validate = validators.get(call.toolName);
        if (validate === undefined) return { id: call.id, content: `Unknown tool ${call.toolName}`, isError: true };
        const input: unknown = JSON.parse(call.arguments);
        if (!validate(input)) return { id: call.id, content: ajv.errorsText(validate.errors), isError: true };
        counter.runs += 1;
        const output = await lookUpOrdersAsync(input as OrderLookupInput);
        return { id: call.id, content: JSON.stringify(output), isError: false };
      };
      // A fresh journal per run, as toolcircuit's system gives each run its own `InMemoryJournal`.
      let journal = new FloorJournal();
      const answerJournaled = async (call: ScriptedToolCall): Promise<FloorResult> => {
        const started = performance.now();
        const validate = validators.get(call.toolName);
        if (validate === undefined) return { id: call.id, content: `Unknown tool ${call.toolName}`, isError: true };
        const input: unknown = JSON.parse(call.arguments);
        if (!validate(input)) {
          journal.append(call, clock.stamps.length, input, started, undefined);
          return { id: call.id, content: ajv.errorsText(validate.errors), isError: true };
        }
        counter.runs += 1;
        const content = JSON.stringify(await lookUpOrdersAsync(input as OrderLookupInput));
        journal.append(call, clock.stamps.length, input, started, content);
        return { id: call.id, content, isError: false };
      };
      if ((journaled || streaming) && tool === 'sync') {
        throw new Error('The journaling and streaming floors are timed with the async tool only.');
      }
      const answer = journaled ? answerJournaled : answerLater;
      if (streaming) {
        /**
         * The least a streaming loop hands its reader: each turn, each call as the model asked for it and
         * each result, one at a time through an async generator (which waits for the reader: back-pressure).
         */
        async function* streamed(): AsyncGenerator<FloorEvent, string> {
          const messages: FloorMessage[] = [{ role: 'user', content: script.userText }];
          for (;;) {
            const turn = await Promise.resolve(model());
            messages.push({ role: 'assistant', ...turn });
            yield { type: 'turn', calls: turn.calls.length };
            if (turn.calls.length === 0) return turn.text ?? '';
            for (const call of turn.calls) yield { type: 'tool-call', call };
            const results = await Promise.all(turn.calls.map(answer));
            for (const result of results) yield { type: 'tool-result', result };
            messages.push({ role: 'tool', results });
          }
        }
        return {
          async run() {
            clock.reset();
            counter.runs = 0;
            const started = performance.now();
            const stream = streamed();
            let next = await stream.next();
            while (next.done !== true) next = await stream.next();
            const totalMs = performance.now() - started;
            return { totalMs, stepStarts: [...clock.stamps], toolRuns: counter.runs, finalText: next.value };
          },
        };
      }
      return {
        async run() {
          clock.reset();
          counter.runs = 0;
          journal = new FloorJournal();
          const started = performance.now();
          const messages: FloorMessage[] = [{ role: 'user', content: script.userText }];
          let text = '';
          for (;;) {
            // Awaited like a real model call, so the floor pays the same microtask a network call costs.
            const turn = await Promise.resolve(model());
            messages.push({ role: 'assistant', ...turn });
            if (turn.calls.length === 0) {
              text = turn.text ?? '';
              break;
            }
            const results = tool === 'sync' ? turn.calls.map(answerNow) : await Promise.all(turn.calls.map(answer));
            messages.push({ role: 'tool', results });
          }
          const totalMs = performance.now() - started;
          return { totalMs, stepStarts: [...clock.stamps], toolRuns: counter.runs, finalText: text };
        },
      };
    },
  };
}
