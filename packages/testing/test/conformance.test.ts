import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import {
  InMemoryJournal,
  type JsonValue,
  type LoopResult,
  type ModelTurn,
  runLoop,
  type ToolCallPart,
} from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { renderConformanceCassettes } from '../src/conformance/conformance-cassette.js';
import {
  CONFORMANCE_PROTOCOLS,
  CONFORMANCE_SCENARIOS,
  type ConformanceScenario,
  conformanceCassettesDirectory,
  conformanceWireOf,
  createConformanceCatalogue,
  createConformanceSession,
  createScriptedModel,
  loadConformanceCassette,
  loadStructuredOutputCassette,
  neutralTrace,
  STRUCTURED_OUTPUT_SCENARIOS,
  STRUCTURED_OUTPUT_VARIANTS,
} from '../src/index.js';

/** The scenario's turns as neutral model turns, for a wire-less reference run. */
function scriptedTurns(scenario: ConformanceScenario): ModelTurn[] {
  return scenario.turns.map((turn, turnIndex) => {
    const calls = turn.calls.map(
      (call, index): ToolCallPart => ({
        type: 'tool_call',
        id: `call-${turnIndex}-${index}`,
        name: call.name,
        input: call.arguments,
      }),
    );
    return {
      content: [...(turn.text === undefined ? [] : [{ type: 'text' as const, text: turn.text }]), ...calls],
      stopReason:
        calls.length > 0 ? { unified: 'tool_calls', raw: 'scripted' } : { unified: 'end_turn', raw: 'scripted' },
      usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined },
    };
  });
}

async function referenceRun(scenario: ConformanceScenario): Promise<{ result: LoopResult; journal: InMemoryJournal }> {
  const journal = new InMemoryJournal();
  const result = await runLoop({
    model: createScriptedModel(scriptedTurns(scenario)),
    catalogue: createConformanceCatalogue(),
    session: createConformanceSession(),
    system: scenario.system,
    messages: [{ role: 'user', content: scenario.prompt }],
    journal,
    ...(scenario.maxTurns === undefined ? {} : { maxTurns: scenario.maxTurns }),
  });
  return { result, journal };
}

describe('conformance cassettes', () => {
  it('are exactly what the generator writes from the scenarios, with nothing left over', () => {
    const directory = conformanceCassettesDirectory();
    const files = renderConformanceCassettes();
    expect(files.size).toBe(
      CONFORMANCE_PROTOCOLS.length * CONFORMANCE_SCENARIOS.length +
        STRUCTURED_OUTPUT_VARIANTS.length * STRUCTURED_OUTPUT_SCENARIOS.length,
    );
    const onDisk = readdirSync(directory, { recursive: true, encoding: 'utf8' })
      .filter((entry) => entry.endsWith('.json'))
      .map((entry) => entry.split(sep).join('/'))
      .sort();
    expect(onDisk).toEqual([...files.keys()].sort());
    for (const [file, text] of files) expect(readFileSync(join(directory, file), 'utf8'), file).toBe(text);
  });

  it("structured-output cassettes: synthetic, one interaction per turn, on the variant model's path", () => {
    for (const variant of STRUCTURED_OUTPUT_VARIANTS) {
      for (const scenario of STRUCTURED_OUTPUT_SCENARIOS) {
        const cassette = loadStructuredOutputCassette(variant, scenario);
        expect(cassette.provenance.kind).toBe('synthetic');
        expect(cassette.model).toBe(variant.model);
        expect(cassette.interactions).toHaveLength(scenario.turns.length);
        const paths = cassette.interactions.map((interaction) => interaction.request.path);
        expect(new Set(paths)).toEqual(
          new Set([conformanceWireOf(variant.protocol).path.replace(/gemini-[^:]+/, variant.model)]),
        );
      }
    }
  });

  it('generates the same bytes twice (ids and signatures are seeded, not random)', () => {
    expect([...renderConformanceCassettes()]).toEqual([...renderConformanceCassettes()]);
  });

  it('are valid synthetic cassettes with one interaction per scenario turn, on their wire path and model', () => {
    for (const protocol of CONFORMANCE_PROTOCOLS) {
      const wire = conformanceWireOf(protocol);
      for (const scenario of CONFORMANCE_SCENARIOS) {
        const cassette = loadConformanceCassette(protocol, scenario.id);
        expect(cassette.protocol).toBe(protocol);
        expect(cassette.provenance.kind).toBe('synthetic');
        expect(cassette.provenance.note).toContain(scenario.id);
        expect(cassette.model).toBe(wire.model);
        expect(cassette.interactions.map((interaction) => interaction.request.path)).toEqual(
          scenario.turns.map(() => wire.path),
        );
      }
    }
  });

  it('give every call of a scenario its own provider id, across turns too (except Gemini, which sends none)', () => {
    for (const protocol of CONFORMANCE_PROTOCOLS) {
      const wire = conformanceWireOf(protocol);
      for (const scenario of CONFORMANCE_SCENARIOS) {
        const ids = scenario.turns.flatMap((turn, turnIndex) =>
          wire.callIds({ scenarioId: scenario.id, turnIndex, turn }),
        );
        if (protocol === 'gemini') {
          expect(ids.every((id) => id === undefined)).toBe(true);
        } else {
          expect(new Set(ids).size, `${protocol}/${scenario.id}`).toBe(ids.length);
        }
      }
    }
  });

  it('carry the raw argument text only where arguments are JSON text', () => {
    const body = (protocol: (typeof CONFORMANCE_PROTOCOLS)[number]): string =>
      JSON.stringify(loadConformanceCassette(protocol, 'invalid_arguments').interactions[0]?.response.body);
    expect(body('openai-chat')).toContain(JSON.stringify('{"numero": '));
    expect(body('openai-responses')).toContain(JSON.stringify('{"numero": '));
    expect(body('anthropic-messages')).toContain('"input":{"numero":"1234"}');
    expect(body('gemini')).toContain('"args":{"numero":"1234"}');
  });
});

describe('conformance scenarios', () => {
  it('cover the six behaviours the issue names', () => {
    expect(CONFORMANCE_SCENARIOS.map((scenario) => scenario.id)).toEqual([
      'single_call',
      'parallel_calls',
      'refusal_round_trip',
      'no_argument_tool',
      'invalid_arguments',
      'max_turns',
    ]);
  });

  it('expect what the scripted turns say: the same calls and texts, a reply after every calling turn', () => {
    for (const scenario of CONFORMANCE_SCENARIOS) {
      for (const expected of Object.values(scenario.expected)) {
        expect(expected.turnCount, scenario.id).toBe(scenario.turns.length);
        expected.turns.forEach((turn, index) => {
          const scripted = scenario.turns[index];
          expect(turn.calls.map((call) => call.name)).toEqual(scripted?.calls.map((call) => call.name));
          expect(turn.text).toBe(scripted?.text ?? '');
          expect(turn.results?.length ?? 0).toBe(scripted?.calls.length ?? -1);
        });
      }
    }
  });

  // The wire-less reference: the loop and executor alone give each `object`-style expectation. An adapter
  // that differs from it differs in translation, which is what the suite is after.
  for (const scenario of CONFORMANCE_SCENARIOS) {
    it(`${scenario.id}: played neutrally by the scripted model, gives the expected trace`, async () => {
      const { result, journal } = await referenceRun(scenario);
      expect(neutralTrace(result, journal)).toEqual(scenario.expected.object);
    });
  }
});

describe('neutralTrace', () => {
  const parallel = CONFORMANCE_SCENARIOS.find((scenario) => scenario.id === 'parallel_calls');
  if (parallel === undefined) throw new Error('parallel_calls scenario missing');

  it('orders calls as the model emitted them, whatever order the journal holds them in', async () => {
    const { result, journal } = await referenceRun(parallel);
    const reversed = { entries: [...journal.entries].reverse() };
    expect(neutralTrace(result, reversed)).toEqual(parallel.expected.object);
  });

  it('reports a call the journal lacks or holds twice, instead of guessing its verdict', async () => {
    const { result, journal } = await referenceRun(parallel);
    const [first, ...rest] = journal.entries;
    if (first === undefined) throw new Error('empty journal');
    const verdicts = (entries: typeof rest) =>
      neutralTrace(result, { entries }).turns[0]?.calls.map((call) => call.verdict);
    expect(verdicts(rest)).toEqual(['unjournaled', 'executed', 'executed']);
    expect(verdicts([first, first, ...rest])).toEqual(['journaled-more-than-once', 'executed', 'executed']);
  });

  it('ignores journal entries of other runs and leaves provider ids out', async () => {
    const { result, journal } = await referenceRun(parallel);
    const other = journal.entries.map((entry) => ({ ...entry, runId: 'another-run', verdict: 'failed' as const }));
    const trace = neutralTrace(result, { entries: [...other, ...journal.entries] });
    expect(trace).toEqual(parallel.expected.object);
    expect(JSON.stringify(trace as unknown as JsonValue)).not.toContain('call-0-');
  });
});
