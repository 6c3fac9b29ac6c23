// One catalogue, one loop, five backends (Anthropic Messages, OpenAI Chat Completions, OpenAI Responses,
// Gemini over @google/genai and over @google/generative-ai), each through its official SDK over real HTTP
// to the replay server: every conformance scenario must give the same neutral trace on all of them.
import type { Message, Model, ModelRequest } from '@toolcircuit/core';
import {
  argumentStyleOf,
  CONFORMANCE_SCENARIOS,
  type ConformanceRun,
  type ConformanceScenario,
  type NeutralTrace,
  runConformanceScenario,
} from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { BACKENDS } from './support/all-backends.js';

const STYLE_DEPENDENT = '(depends on how the protocol carries arguments)';

/**
 * The trace with what may differ between argument styles blanked: the input and result text of calls
 * refused as invalid (a schema failure on object arguments, unparsable text on JSON-text ones).
 */
function styleIndependent(trace: NeutralTrace): NeutralTrace {
  return {
    ...trace,
    turns: trace.turns.map((turn) => {
      const invalid = turn.calls.flatMap((call, index) => (call.reason === 'invalid_input' ? [index] : []));
      return {
        ...turn,
        calls: turn.calls.map((call, index) => (invalid.includes(index) ? { ...call, input: STYLE_DEPENDENT } : call)),
        results:
          turn.results?.map((result) =>
            invalid.includes(result.answers) ? { ...result, text: STYLE_DEPENDENT } : result,
          ) ?? null,
      };
    }),
  };
}

async function runEverywhere(scenario: ConformanceScenario): Promise<ConformanceRun[]> {
  const runs: ConformanceRun[] = [];
  // One after the other: two cores, and a failure names its backend.
  for (const backend of BACKENDS) runs.push(await runConformanceScenario({ ...backend, scenario }));
  return runs;
}

describe('one catalogue and loop on all five backends', () => {
  it.each(CONFORMANCE_SCENARIOS)('$id: the same neutral trace everywhere', async (scenario) => {
    const runs = await runEverywhere(scenario);
    runs.forEach((run, index) => {
      const backend = BACKENDS[index];
      const label = backend?.label ?? String(index);
      expect(
        run.mismatches.map((mismatch) => mismatch.reason),
        `${label}: replay mismatches`,
      ).toEqual([]);
      expect(run.remaining, `${label}: interactions left`).toBe(0);
      expect(run.requestProblems, `${label}: what it sent`).toEqual([]);
      expect(run.trace, `${label}: trace`).toEqual(scenario.expected[argumentStyleOf(backend?.protocol ?? 'gemini')]);
    });
    const [first, ...others] = runs.map((run) => styleIndependent(run.trace));
    for (const [index, trace] of others.entries()) {
      expect(trace, `${BACKENDS[index + 1]?.label} vs ${BACKENDS[0]?.label}`).toEqual(first);
    }
  });

  it('differ between argument styles only where the scenario says so', () => {
    for (const scenario of CONFORMANCE_SCENARIOS) {
      const { object, 'json-text': jsonText } = scenario.expected;
      expect(styleIndependent(object), scenario.id).toEqual(styleIndependent(jsonText));
      if (scenario.id !== 'invalid_arguments') expect(object, scenario.id).toEqual(jsonText);
    }
  });
});

// The suite must be able to fail: each backend is wrapped in a model that breaks one rule, and the run
// has to report it.

const parallel = CONFORMANCE_SCENARIOS.find((scenario) => scenario.id === 'parallel_calls');

/** A model that rewrites each request's history before the adapter translates it. */
function rewritingHistory(inner: Model, rewrite: (messages: readonly Message[]) => Message[]): Model {
  return {
    provider: inner.provider,
    modelId: inner.modelId,
    generate: (request: ModelRequest) => inner.generate({ ...request, messages: rewrite(request.messages) }),
  };
}

function rewriteLastReply(messages: readonly Message[], change: (message: Message & { role: 'tool' }) => Message) {
  const last = messages.at(-1);
  return last?.role === 'tool' ? [...messages.slice(0, -1), change(last)] : [...messages];
}

describe('the checks catch a backend that misbehaves', () => {
  if (parallel === undefined) throw new Error('parallel_calls scenario missing');

  it.each(BACKENDS)('$label: a result sent with other content', async (backend) => {
    const run = await runConformanceScenario({
      ...backend,
      scenario: parallel,
      createModel: (server) =>
        rewritingHistory(backend.createModel(server), (messages) =>
          rewriteLastReply(messages, (reply) => ({
            role: 'tool',
            content: reply.content.map((result, index) => (index === 0 ? { ...result, content: 'tampered' } : result)),
          })),
        ),
    });
    expect(run.requestProblems).toHaveLength(1);
    expect(run.requestProblems[0]).toMatch(/^request 2: .* 0 does not carry the result/);
  });

  it.each(BACKENDS)('$label: a reply missing its last result', async (backend) => {
    const run = await runConformanceScenario({
      ...backend,
      scenario: parallel,
      createModel: (server) =>
        rewritingHistory(backend.createModel(server), (messages) =>
          rewriteLastReply(messages, (reply) => ({ role: 'tool', content: reply.content.slice(0, -1) })),
        ),
    });
    expect(run.requestProblems.length).toBeGreaterThan(0);
    expect(run.requestProblems.every((problem) => problem.startsWith('request 2: '))).toBe(true);
  });

  it.each(BACKENDS)('$label: a turn that lost a call', async (backend) => {
    const run = await runConformanceScenario({
      ...backend,
      scenario: parallel,
      createModel: (server) => {
        const inner = backend.createModel(server);
        return {
          provider: inner.provider,
          modelId: inner.modelId,
          generate: async (request: ModelRequest) => {
            const turn = await inner.generate(request);
            const calls = turn.content.filter((part) => part.type === 'tool_call');
            return calls.length < 2 ? turn : { ...turn, content: turn.content.filter((part) => part !== calls.at(-1)) };
          },
        };
      },
    });
    expect(run.trace).not.toEqual(run.expected);
    expect(run.trace.turns[0]?.calls.map((call) => call.input)).toEqual([{ numero: 'A-1234' }, { numero: 'Z-9999' }]);
  });
});
