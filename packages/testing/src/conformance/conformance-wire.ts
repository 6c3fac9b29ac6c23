import type { JsonValue } from '@toolcircuit/core';
import type { CassetteProtocol } from '../cassettes/cassette.js';
import type { ConformanceTurn } from './conformance-scenario.js';

/** Where a generated response sits: seeds every made-up id, so each is stable and unique. */
export interface TurnPosition {
  readonly scenarioId: string;
  /** 0-based index of the turn (and of the interaction answering it). */
  readonly turnIndex: number;
  readonly turn: ConformanceTurn;
}

/** The neutral result a call must get back, from the scenario's expected trace. */
export interface ExpectedResult {
  readonly isError: boolean;
  /** As `toolResultText` renders it; a provider's text must contain it (OpenAI may prefix errors). */
  readonly text: string;
}

/**
 * One protocol's side of the conformance suite: how a neutral turn looks on its wire (to write cassettes),
 * and what a correct next request must contain (to check what the adapter sent).
 */
export interface ConformanceWire {
  readonly protocol: CassetteProtocol;
  /** Model id of the cassettes; Gemini puts it in the path. */
  readonly model: string;
  readonly path: string;
  /** Real recordings whose response shape the generated ones follow (cassette names). */
  readonly shapeReferences: readonly string[];
  readonly responseHeaders: Readonly<Record<string, string>>;
  /** The provider's ids for the turn's calls, in order. */
  callIds(position: TurnPosition): readonly (string | undefined)[];
  /** The response body answering the request for this turn. */
  responseBody(position: TurnPosition): JsonValue;
  /** Tool names the request declares, in order. */
  declaredToolNames(body: JsonValue | undefined): readonly string[];
  /**
   * What is wrong with how a request carries the results of the calls the cassette sent for `previous`
   * (empty: nothing): they must be its last content, placed the way the provider wants them, in call order,
   * right after the re-sent calls, each carrying its neutral result.
   */
  replyProblems(body: JsonValue | undefined, previous: TurnPosition, results: readonly ExpectedResult[]): string[];
}
