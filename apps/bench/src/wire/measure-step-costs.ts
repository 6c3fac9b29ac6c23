import { anthropicRequestBodyText, buildAnthropicRequest, DEFAULT_ANTHROPIC_MAX_TOKENS } from '@toolcircuit/anthropic';
import type { Message, ToolDeclaration } from '@toolcircuit/core';
import { convertToGoogleMessages, prepareGoogleDeclarations } from '@toolcircuit/google';
import { median } from '../measure/stats.js';
import { createInstantFetch } from './instant-fetch.js';
import type { WireProtocol } from './instant-responses.js';
import { type PlayedConversation, playConversation, WIRE_TOOL } from './play-conversation.js';
import { type StepTiming, type TimedStep, timeSteps } from './time-steps.js';
import { type BodyHandling, WIRE_ADAPTERS, type WireAdapter } from './wire-adapters.js';

/**
 * - `model`: `model.generate` through the real adapter and SDK, its fetch answering at once (no socket).
 * - `adapter`: the adapter's own exported request path alone, without the SDK.
 * - `reference`: `JSON.stringify` of the whole body, as a step would pay serialising it from scratch.
 * - `floor`: encoding the whole body text to bytes, as any fetch does before sending it.
 */
export type StepRowKind = 'model' | 'adapter' | 'reference' | 'floor';

export interface StepCost extends TimedStep {
  readonly row: string;
  readonly kind: StepRowKind;
  /** For `model` rows: how the adapter makes its body. */
  readonly body: BodyHandling | undefined;
}

// As the bench's Anthropic model builds its body (wire-adapters.ts), so the rows serialise the same body.
const SETTINGS = { model: 'claude-bench', maxTokens: DEFAULT_ANTHROPIC_MAX_TOKENS };

/**
 * The real per-step request cost of each adapter at each history length (`points`, in steps of `calls` calls):
 * each adapter plays its own conversation through the loop (so the history holds what that adapter's turns
 * hold), then each point is timed as one new step on top of the cached earlier ones (see timeSteps). Rows come
 * grouped by history length: the reference and the floor, then per adapter its SDK-free row if it exports a
 * request path, and its `model.generate` row.
 */
export async function measureStepCosts(
  calls: number,
  points: readonly number[],
  timing: StepTiming,
  adapters: readonly WireAdapter[] = WIRE_ADAPTERS,
): Promise<StepCost[]> {
  const longest = Math.max(...points);
  const groups: StepCost[][] = [];
  const played = new Map<WireProtocol, PlayedConversation>();
  for (const adapter of adapters) {
    const instant = createInstantFetch(WIRE_TOOL, calls);
    const rows = await adapter.withFetch(instant.fetch, async (model) => {
      const conversation = await playConversation(model, longest);
      played.set(adapter.protocol, conversation);
      const generate = {
        run: async (messages: readonly Message[]) => {
          await model.generate({ messages, tools: conversation.tools });
          return instant.lastBodyBytes();
        },
        bytesOf: (bytes: number) => bytes,
      };
      return timeSteps(generate, conversation.messages, points, timing);
    });
    if (instant.answered() === 0) throw new Error(`${adapter.label}: the instant fetch was never called`);
    const modelRows = rows.map((row) => ({
      ...row,
      row: `${adapter.label} model.generate`,
      kind: 'model' as const,
      body: adapter.body,
    }));
    groups.push([...(await adapterRows(adapter.protocol, played, points, timing)), ...modelRows]);
  }
  const anthropic = played.get('anthropic');
  if (anthropic !== undefined) groups.unshift(referenceRows(anthropic, points, timing));
  // Stable: within one history length, the groups keep their order.
  return groups.flat().sort((a, b) => a.historySteps - b.historySteps);
}

/** The adapters' exported request paths without their SDK, where they export one. */
async function adapterRows(
  protocol: WireProtocol,
  played: ReadonlyMap<WireProtocol, PlayedConversation>,
  points: readonly number[],
  timing: StepTiming,
): Promise<StepCost[]> {
  const conversation = played.get(protocol);
  if (conversation === undefined) return [];
  const { messages, tools } = conversation;
  switch (protocol) {
    case 'anthropic': {
      const bodyText = {
        run: (history: readonly Message[]) =>
          anthropicRequestBodyText({
            ...buildAnthropicRequest({ messages: history, tools }, SETTINGS).body,
            stream: false,
          }),
        bytesOf: (text: string) => Buffer.byteLength(text),
      };
      return labelled(
        'anthropic: buildAnthropicRequest + anthropicRequestBodyText',
        await timeSteps(bodyText, messages, points, timing),
      );
    }
    case 'google': {
      const convert = googleConversion(tools);
      const contents = {
        run: convert,
        bytesOf: (converted: ReturnType<typeof convert>) => Buffer.byteLength(JSON.stringify(converted)),
      };
      return labelled(
        'google: convertToGoogleMessages (namingKey), no SDK',
        await timeSteps(contents, messages, points, timing),
      );
    }
    default:
      // openai exports no request builder; its model row is its whole path.
      return [];
  }
}

// As the adapter calls it: the catalogue translated once, converted messages reused on its naming key.
function googleConversion(tools: readonly ToolDeclaration[]) {
  const { nameMap } = prepareGoogleDeclarations(tools, 'gemini');
  return (messages: readonly Message[]) =>
    convertToGoogleMessages({
      system: undefined,
      messages,
      functionResponseRole: 'user',
      toProviderName: (name) => nameMap.toProvider(name),
      namingKey: nameMap.key,
    }).contents;
}

function labelled(row: string, timed: readonly TimedStep[]): StepCost[] {
  return timed.map((step) => ({ ...step, row, kind: 'adapter', body: undefined }));
}

const encoder = new TextEncoder();

/**
 * At each point, on a prebuilt Anthropic body: `JSON.stringify` of all of it (what serialising the step from
 * scratch costs), and the UTF-8 encoding of its text (what any fetch pays for a body of that size, flat).
 */
function referenceRows(conversation: PlayedConversation, points: readonly number[], timing: StepTiming): StepCost[] {
  return points.flatMap((steps): StepCost[] => {
    const messages = conversation.messages.slice(0, 1 + 2 * steps);
    // The params messages.create is given (`stream` included), as anthropicRequestBodyText serialises them.
    const body = { ...buildAnthropicRequest({ messages, tools: conversation.tools }, SETTINGS).body, stream: false };
    const text = JSON.stringify(body);
    const bodyBytes = Buffer.byteLength(text);
    const stringify = timeRepeated(() => JSON.stringify(body), timing);
    const encode = timeRepeated(() => encoder.encode(text), timing);
    const shared = { body: undefined, historySteps: steps, bodyBytes };
    return [
      { ...shared, ...stringify, row: 'reference: JSON.stringify of the whole anthropic body', kind: 'reference' },
      { ...shared, ...encode, row: 'floor: UTF-8 encoding of that body text', kind: 'floor' },
    ];
  });
}

/** The same synchronous work over and over (nothing in it is cached from one call to the next). */
function timeRepeated(work: () => unknown, timing: StepTiming): { us: number; samples: number } {
  work(); // warm-up
  const samples: number[] = [];
  const deadline = performance.now() + timing.budgetMs;
  while (samples.length < timing.minSamples || (samples.length < timing.maxSamples && performance.now() < deadline)) {
    const started = performance.now();
    work();
    samples.push((performance.now() - started) * 1000);
  }
  return { us: median(samples), samples: samples.length };
}
