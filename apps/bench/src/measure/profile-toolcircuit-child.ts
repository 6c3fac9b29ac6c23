import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Scenario } from '../scenario/scenario.js';
import type { SystemSpec } from '../systems/bench-system.js';
import { spawnNode } from './spawn-node.js';
import { type ProfileSummary, summarizeProfile } from './summarize-profile.js';

const CHILD = fileURLToPath(new URL('../profile-toolcircuit.js', import.meta.url));

/** Profiles toolcircuit's steady state in a child process and summarises where the time goes. */
export async function profileToolcircuit(
  scenario: Scenario,
  seconds: number,
  spec: SystemSpec = { id: 'toolcircuit' },
): Promise<ProfileSummary> {
  const directory = mkdtempSync(join(tmpdir(), 'toolcircuit-profile-'));
  await spawnNode(
    [
      CHILD,
      directory,
      String(scenario.calls),
      String(scenario.steps),
      String(scenario.tools),
      String(seconds),
      JSON.stringify(spec),
    ],
    process.cwd(),
  );
  return summarizeProfile(directory);
}
