import type { JsonObject } from '@toolcircuit/core';
import type { CassetteProtocol } from '../cassettes/cassette.js';
import type { NeutralTrace } from './neutral-trace.js';

export type ConformanceScenarioId =
  | 'single_call'
  | 'parallel_calls'
  | 'refusal_round_trip'
  | 'no_argument_tool'
  | 'invalid_arguments'
  | 'max_turns';

/**
 * How a protocol carries call arguments: decoded objects (Anthropic `input`, Gemini `args`), which can only
 * be wrong against the schema, or JSON text (OpenAI `arguments`), which can also fail to parse.
 */
export type ArgumentStyle = 'object' | 'json-text';

export function argumentStyleOf(protocol: CassetteProtocol): ArgumentStyle {
  return protocol === 'openai-chat' || protocol === 'openai-responses' ? 'json-text' : 'object';
}

/** One call the model makes, neutrally; the cassette generator writes it in each protocol's shape. */
export interface ConformanceCall {
  readonly name: string;
  /** The decoded arguments (`input` / `args`; serialised as the `arguments` text on OpenAI). */
  readonly arguments: JsonObject;
  /** On `json-text` protocols, send this text as `arguments` instead: how OpenAI sends broken JSON. */
  readonly argumentsText?: string;
}

/** One model answer: text first, then calls. With calls the turn stops for them, without it ends the run. */
export interface ConformanceTurn {
  readonly text?: string;
  readonly calls: readonly ConformanceCall[];
}

export interface ConformanceScenario {
  readonly id: ConformanceScenarioId;
  /** What the scenario proves, for test names. */
  readonly title: string;
  readonly system: string;
  readonly prompt: string;
  /** Passed to `runLoop`; absent means the loop's default. */
  readonly maxTurns?: number;
  /** What the model answers to each request, in order: one interaction per turn. */
  readonly turns: readonly ConformanceTurn[];
  /** The trace every backend must give, per argument style (the same object when the style cannot matter). */
  readonly expected: Readonly<Record<ArgumentStyle, NeutralTrace>>;
}
