// The demo prints what each backend's run cost: the figure `runCost` gives for the same run's turns, at
// the shipped price table, and "unknown" (with why) for a model the table has no row for.
import { createModel } from '@toolcircuit/config';
import { runCost } from '@toolcircuit/core';
import { loadCassette, startReplayServer } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { DEMO_BACKENDS } from '../src/demo/demo-backends.js';
import { formatCost } from '../src/demo/format-cost.js';
import { runDemoScenario } from '../src/demo/run-demo-scenario.js';
import { JsonTraceWriter } from '../src/trace/trace-writer.js';
import { runBin } from './support/cli-process.js';
import { DEMO_CASSETTES } from './support/demo-cassettes.js';

const OFFLINE_KEYS = {
  ANTHROPIC_API_KEY: 'offline',
  OPENAI_API_KEY: 'offline',
  GEMINI_API_KEY: 'offline',
};

describe('toolcircuit demo: the cost per run', () => {
  it('prints each backend’s cost, the same as runCost of that run’s turns; unknown where the table has no row', async () => {
    const { code, stdout } = await runBin(['demo']);
    expect(code).toBe(0);
    const block = stdout.slice(stdout.indexOf('Cost per run'), stdout.indexOf('Next:'));

    for (const backend of DEMO_BACKENDS) {
      const cassette = loadCassette(backend.cassette, { directory: DEMO_CASSETTES });
      const server = await startReplayServer(cassette);
      try {
        const model = await createModel(backend.config(server.url, cassette.model ?? 'demo-model'), {
          env: OFFLINE_KEYS,
        });
        const outcome = await runDemoScenario(model, new JsonTraceWriter({ write: () => true }));
        const expected = formatCost(runCost(outcome.turns, model).total);
        const line = block.split('\n').find((row) => row.trimStart().startsWith(`${backend.id} `));
        expect(line?.trim().slice(backend.id.length).trim()).toBe(expected);
      } finally {
        await server.close();
      }
    }
    // Claude Haiku 5.5 at $0.10 / $0.50 per million (every turn under its 100,000-token tier): 1,968 input
    // and 183 output tokens over the run's 3 turns.
    expect(block).toMatch(/ anthropic +\$0\.000288\n/);
    expect(block).toMatch(/ openai-chat +unknown \(no price for openai:gpt-4\.1-mini\)\n/);
    expect(block).toMatch(/ gemini-genai +unknown \(no price for google:gemini-2\.5-flash\)\n/);
  });
});
