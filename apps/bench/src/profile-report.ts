/**
 * `pnpm --filter @toolcircuit/bench bench:profile [calls] [steps] [tools] [spec JSON]`: profiles toolcircuit
 * with `node --cpu-prof` in a child process and prints where its time goes; the optional spec picks the
 * configuration, e.g. '{"id":"toolcircuit","tool":"async","journal":true}'.
 */
import { profileToolcircuit } from './measure/profile-toolcircuit-child.js';
import { formatProfile } from './report/format-profile.js';
import { parseSystemSpec } from './systems/load-system.js';

const [calls = '8', steps = '100', tools = '1', spec] = process.argv.slice(2);
const summary = await profileToolcircuit(
  { calls: Number(calls), steps: Number(steps), tools: Number(tools) },
  4,
  spec === undefined ? undefined : parseSystemSpec(spec),
);
process.stdout.write(`${formatProfile(summary)}\n`);
