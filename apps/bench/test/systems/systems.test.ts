import { describe, expect, it } from 'vitest';
import { createScript, FINAL_TEXT } from '../../src/scenario/scenario.js';
import { aiSystem } from '../../src/systems/ai-system.js';
import { ai7System } from '../../src/systems/ai7-system.js';
import type { BenchSystem } from '../../src/systems/bench-system.js';
import { handWrittenSystem } from '../../src/systems/hand-written-system.js';
import { openAIAgentsSystem } from '../../src/systems/openai-agents-system.js';
import { toolcircuitSystem } from '../../src/systems/toolcircuit-system.js';

const systems: BenchSystem[] = [
  toolcircuitSystem(),
  toolcircuitSystem({ schema: 'zod', journal: true }),
  toolcircuitSystem({ loop: 'stream' }),
  toolcircuitSystem({ tool: 'async' }),
  toolcircuitSystem({ tool: 'async', journal: true }),
  toolcircuitSystem({ tool: 'async', loop: 'stream' }),
  toolcircuitSystem({ tool: 'async', schema: 'zod' }),
  handWrittenSystem(),
  handWrittenSystem('async'),
  handWrittenSystem('async', { journal: true }),
  handWrittenSystem('async', { loop: 'stream' }),
  aiSystem(),
  aiSystem('async'),
  ai7System('async'),
  openAIAgentsSystem(),
];

// Generous timeouts: preparing 100 tools compiles 100 schemas, slow on a busy shared machine.
const SLOW = 300_000;

// Structure only: every system plays the whole script, asks its model S + 1 times, and refuses the
// invalid inputs (which proves validation is on in each). No timing is asserted.
describe.each(systems.map((system) => [system.label, system] as const))('%s', (_label, system) => {
  it(
    'plays K calls × S steps and answers',
    async () => {
      const script = createScript({ calls: 3, steps: 4, tools: 1 });
      const prepared = await system.prepare(script);
      const record = await prepared.run();
      expect(record.finalText).toBe(FINAL_TEXT);
      expect(record.stepStarts).toHaveLength(5);
      expect(record.toolRuns).toBe(12);
      expect(record.totalMs).toBeGreaterThan(0);
    },
    SLOW,
  );

  it(
    'validates: an input that breaks the schema never reaches the tool',
    async () => {
      const script = createScript({ calls: 2, steps: 3, tools: 5 }, { invalidAt: ['0:1', '2:0'] });
      expect(script.invalidCalls).toBe(2);
      const record = await (await system.prepare(script)).run();
      expect(record.toolRuns).toBe(6 - 2);
      expect(record.finalText).toBe(FINAL_TEXT);
    },
    SLOW,
  );

  it(
    'can run the same prepared conversation twice',
    async () => {
      const prepared = await system.prepare(createScript({ calls: 1, steps: 2, tools: 100 }));
      const first = await prepared.run();
      const second = await prepared.run();
      expect(second.toolRuns).toBe(first.toolRuns);
      expect(second.stepStarts).toHaveLength(3);
    },
    SLOW,
  );
});
