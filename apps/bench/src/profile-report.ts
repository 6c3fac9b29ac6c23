/**
 * `pnpm --filter @toolcircuit/bench bench:profile [calls] [steps] [tools]`: profiles toolcircuit with
 * `node --cpu-prof` in a child process and prints where its time goes.
 */
import { profileToolcircuit } from './measure/profile-toolcircuit-child.js';
import { formatProfile } from './report/format-profile.js';

const [calls = '8', steps = '100', tools = '1'] = process.argv.slice(2);
const summary = await profileToolcircuit({ calls: Number(calls), steps: Number(steps), tools: Number(tools) }, 4);
process.stdout.write(`${formatProfile(summary)}\n`);
