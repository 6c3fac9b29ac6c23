/**
 * Child process entry for profiling: prepares toolcircuit for one scenario, warms it up, then records a
 * V8 CPU profile (the profiler `node --cpu-prof` uses, started through node:inspector so that start-up and
 * the one-time ajv compilation of the catalogue stay out of it) while replaying the scenario for at least
 * `seconds`. Writes `<dir>/toolcircuit.cpuprofile`, loadable in Chrome DevTools.
 * `node dist/profile-toolcircuit.js <dir> [calls] [steps] [tools] [seconds] [system spec JSON]` (the spec
 * picks the configuration: async tool, journal, streamLoop, Zod; plain `runLoop` by default).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { checkRecord } from './measure/run-matrix.js';
import { createScript } from './scenario/scenario.js';
import { parseSystemSpec } from './systems/load-system.js';
import { toolcircuitSystem } from './systems/toolcircuit-system.js';

const [directory = '.', calls = '8', steps = '100', tools = '1', seconds = '3', spec] = process.argv.slice(2);
const { id: _id, ...variant } = spec === undefined ? { id: 'toolcircuit' } : parseSystemSpec(spec);
const system = toolcircuitSystem(variant);
const script = createScript({ calls: Number(calls), steps: Number(steps), tools: Number(tools) });
const prepared = await system.prepare(script);
for (let warmUp = 0; warmUp < 3; warmUp += 1) checkRecord(system, script, await prepared.run());

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 100 });
await session.post('Profiler.start');
const deadline = performance.now() + Number(seconds) * 1000;
let runs = 0;
while (runs < 3 || performance.now() < deadline) {
  checkRecord(system, script, await prepared.run());
  runs += 1;
}
const { profile } = await session.post('Profiler.stop');
session.disconnect();
writeFileSync(join(directory, 'toolcircuit.cpuprofile'), JSON.stringify(profile));
process.stdout.write(`${JSON.stringify({ runs })}\n`);
