import {
  createCatalogue,
  createSession,
  defineTool,
  everySession,
  type Message,
  type Model,
  type ModelRequest,
  runLoop,
  type ToolMessage,
} from '@toolcircuit/core';
import { collectGarbage } from '../measure/collect-garbage.js';
import { median } from '../measure/stats.js';
import { oneCallATurnModel } from '../scenario/one-call-a-turn-model.js';
import { archivePage, LONG_RUN_RESULT_CHARS } from './long-run-pages.js';
import { LONG_RUN_BUDGET } from './play-long-run.js';

/** The policy's own CPU cost per turn, against a hand-written clearing pass doing the same job. */
export interface PolicyCost {
  readonly turns: number;
  readonly rounds: number;
  /** CPU µs per turn of the loop without a policy (in-process model: no adapter, no HTTP). */
  readonly loopUs: number;
  /** CPU µs per turn the policy adds: the loop with it, less the loop without. */
  readonly policyUs: number;
  /** CPU µs per turn the hand-written floor adds, done in the model over the same requests. */
  readonly floorUs: number;
  readonly samples: { readonly loop: number[]; readonly policy: number[]; readonly floor: number[] };
}

/**
 * Times the context policy alone: a 200-turn run with 20 KB results through `runLoop` and an in-process model
 * (no adapter, no SDK, no socket), without a policy, with `{ maxTokens: 100_000 }`, and without a policy but
 * with the hand-written floor applied to each request inside the model. Rounds alternate the three, a GC
 * before each; CPU time of this process, medians. The differences to the plain loop are each one's cost.
 */
export function measurePolicyCost(options: { readonly rounds: number; readonly turns?: number }): Promise<PolicyCost> {
  return measure(options.rounds, options.turns ?? 200);
}

async function measure(rounds: number, turns: number): Promise<PolicyCost> {
  const pages = Array.from({ length: turns + 1 }, (_, index) => archivePage(index, LONG_RUN_RESULT_CHARS));
  const catalogue = createCatalogue([
    defineTool({
      name: 'query_archive',
      description: 'Returns one page of the archive.',
      inputSchema: { type: 'object', properties: { page: { type: 'integer' } }, required: ['page'] },
      right: everySession,
      run: ({ page }) => pages[page] ?? '',
    }),
  ]);
  const session = createSession({ id: 'bench', humanId: 'bench', rights: [] });
  const messages: Message[] = [{ role: 'user', content: 'Read every page.' }];
  const play = async (mode: 'loop' | 'policy' | 'floor'): Promise<number> => {
    const model = inProcessModel(turns, mode === 'floor');
    collectGarbage();
    const start = process.cpuUsage();
    await runLoop({
      model,
      catalogue,
      session,
      messages,
      maxTurns: turns + 1,
      ...(mode === 'policy' ? { contextPolicy: { maxTokens: LONG_RUN_BUDGET } } : {}),
    });
    const used = process.cpuUsage(start);
    return (used.user + used.system) / turns;
  };
  // One untimed round: compiled code and warm caches for all three.
  for (const mode of ['loop', 'policy', 'floor'] as const) await play(mode);
  const samples = { loop: [] as number[], policy: [] as number[], floor: [] as number[] };
  for (let round = 0; round < rounds; round += 1) {
    for (const mode of ['loop', 'policy', 'floor'] as const) samples[mode].push(await play(mode));
  }
  const loopUs = median(samples.loop);
  return {
    turns,
    rounds,
    loopUs,
    policyUs: median(samples.policy) - loopUs,
    floorUs: median(samples.floor) - loopUs,
    samples,
  };
}

/** Calls `query_archive` for pages 1…turns, then answers; `floor`: shapes each request by hand first. */
function inProcessModel(turns: number, floor: boolean): Model {
  return oneCallATurnModel({
    turns,
    toolName: 'query_archive',
    inputOf: (page) => ({ page }),
    usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
    ...(floor
      ? {
          beforeTurn: (request: ModelRequest) => {
            // Its result is read, so that no engine can drop the work as unused.
            if (floorShape(request.messages, LONG_RUN_BUDGET, 3).length === 0) throw new Error('nothing to send');
          },
        }
      : {}),
  });
}

/**
 * The hand-written floor: what an application would write to do the policy's job with the least work. Each
 * request, it sums the text lengths of every message (a string's length costs nothing to read), and while the
 * total over 4 characters a token is above the budget, replaces the oldest results outside the last
 * `keepTurns` turns with a fixed placeholder, down to three quarters of the budget; it builds the request's
 * messages anew. No cache, no provider count, no media, no summary: less than the policy does, never more.
 */
export function floorShape(messages: readonly Message[], maxTokens: number, keepTurns: number): readonly Message[] {
  const lengths = messages.map(lengthOf);
  let total = 0;
  for (const length of lengths) total += length;
  if (total / 4 <= maxTokens) return messages;
  let assistants = 0;
  let keepFrom = messages.length;
  for (let index = messages.length - 1; index >= 0 && assistants < keepTurns; index -= 1) {
    if (messages[index]?.role === 'assistant') {
      assistants += 1;
      keepFrom = index;
    }
  }
  const target = (maxTokens * 3) / 4;
  const shaped = [...messages];
  for (let index = 0; index < keepFrom && total / 4 > target; index += 1) {
    const message = messages[index];
    if (message?.role !== 'tool') continue;
    const cleared: ToolMessage = {
      role: 'tool',
      content: message.content.map((part) => ({ ...part, content: '[cleared]' })),
    };
    total -= (lengths[index] ?? 0) - lengthOf(cleared);
    shaped[index] = cleared;
  }
  return shaped;
}

function lengthOf(message: Message): number {
  switch (message.role) {
    case 'system':
      return message.content.length;
    case 'user':
      return typeof message.content === 'string'
        ? message.content.length
        : message.content.reduce((sum, part) => sum + part.text.length, 0);
    case 'assistant':
      return message.content.reduce(
        (sum, part) =>
          sum +
          (part.type === 'tool_call'
            ? JSON.stringify(part.input).length
            : part.type === 'provider'
              ? JSON.stringify(part.data).length
              : part.text.length),
        0,
      );
    case 'tool':
      return message.content.reduce(
        (sum, part) => sum + (typeof part.content === 'string' ? part.content.length : 0),
        0,
      );
  }
}
