import type { ResultCoverageTable } from '@toolcircuit/core';
import type { Cassette } from '../cassettes/cassette.js';
import type { ConformanceScenario } from './conformance-scenario.js';
import { CONFORMANCE_SCENARIOS } from './conformance-scenarios.js';
import { mediaResultProblems, runMediaResultScenario } from './media-result-scenario.js';
import { type ConformanceBackend, runConformanceScenario } from './run-conformance-scenario.js';
import { runStructuredOutputScenario, structuredOutputProblems } from './run-structured-output-scenario.js';
import { STRUCTURED_OUTPUT_SCENARIOS, STRUCTURED_OUTPUT_VARIANTS } from './structured-output-scenario.js';

/** The assertions the suite uses; vitest's `expect` fits. */
export interface ConformanceAssertion {
  toEqual(expected: unknown): void;
  toBe(expected: unknown): void;
}

/**
 * The test functions the suite registers with, passed in by the caller so that this package does not
 * depend on a test runner: `{ describe, it, expect }` from vitest (or any runner with that shape).
 */
export interface ConformanceTestApi {
  readonly describe: (name: string, body: () => void) => void;
  readonly it: (name: string, body: () => Promise<void>) => void;
  readonly expect: (actual: unknown, message?: string) => ConformanceAssertion;
}

export interface ConformanceSuiteOptions extends ConformanceBackend {
  readonly test: ConformanceTestApi;
  /** Names the describe block, e.g. `gemini over @google/generative-ai`. Default: the protocol. */
  readonly label?: string;
  /** The cassette for a scenario. Default: the committed conformance cassettes. */
  readonly cassettes?: (scenario: ConformanceScenario) => Cassette;
  /**
   * The adapter's tool-result coverage table (e.g. `ANTHROPIC_TOOL_RESULT_COVERAGE`): given, the media-result
   * scenario runs too and its parts must be handled as the table says.
   */
  readonly mediaCoverage?: ResultCoverageTable;
}

/**
 * Registers one test per conformance scenario for an adapter: each replays the scenario's cassette through
 * `runLoop` and checks the neutral trace against the scenario's expectation, that the replay served every
 * interaction with no mismatch, and what the adapter sent (declared tools, then where the results went).
 *
 * @example
 * import { describe, expect, it } from 'vitest';
 * runConformanceSuite({
 *   protocol: 'anthropic-messages',
 *   test: { describe, it, expect },
 *   createModel: ({ baseURL, modelId }) => createAnthropicModel({ model: modelId, baseURL, apiKey: 'test', maxRetries: 0 }),
 * });
 */
export function runConformanceSuite(options: ConformanceSuiteOptions): void {
  const { describe, it, expect } = options.test;
  describe(`adapter conformance: ${options.label ?? options.protocol}`, () => {
    for (const scenario of CONFORMANCE_SCENARIOS) {
      it(`${scenario.id}: ${scenario.title}`, async () => {
        const run = await runConformanceScenario({
          protocol: options.protocol,
          createModel: options.createModel,
          scenario,
          ...(options.cassettes === undefined ? {} : { cassette: options.cassettes(scenario) }),
        });
        expect(run.trace, 'neutral trace').toEqual(run.expected);
        expect(run.requestProblems, 'what the adapter sent').toEqual([]);
        expect(
          run.mismatches.map((mismatch) => mismatch.reason),
          'replay mismatches',
        ).toEqual([]);
        expect(run.remaining, 'interactions left unserved').toBe(0);
      });
    }
    // A run with `output`, in each way this protocol's adapter carries the answer (by model).
    for (const variant of STRUCTURED_OUTPUT_VARIANTS.filter((item) => item.protocol === options.protocol)) {
      for (const scenario of STRUCTURED_OUTPUT_SCENARIOS) {
        it(`${scenario.id} (${variant.mode}, ${variant.model}): ${scenario.title}`, async () => {
          const run = await runStructuredOutputScenario({ variant, scenario, createModel: options.createModel });
          expect(structuredOutputProblems(run, variant, scenario), 'structured output').toEqual([]);
        });
      }
    }
    const coverage = options.mediaCoverage;
    if (coverage !== undefined) {
      it('media_result: text + image + PDF as the coverage table says, a 20 MiB image refused, digests journaled', async () => {
        const run = await runMediaResultScenario({ protocol: options.protocol, createModel: options.createModel });
        expect(mediaResultProblems(run, coverage), 'media result').toEqual([]);
      });
    }
  });
}
