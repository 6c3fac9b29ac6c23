import { fileURLToPath } from 'node:url';
import type { RssChildReport } from '../rss-child.js';
import type { Scenario } from '../scenario/scenario.js';
import type { SystemId, SystemSpec } from '../systems/bench-system.js';
import { inBatches, spawnNode } from './spawn-node.js';

const CHILD = fileURLToPath(new URL('../rss-child.js', import.meta.url));

/**
 * Peak RSS per system: one fresh child process per system, each playing the scenario once. Run after the
 * timing phase, two at a time (memory, unlike time, does not suffer from sharing the two cores).
 */
export async function measurePeakRss(
  systems: readonly (SystemId | SystemSpec)[],
  scenario: Scenario,
  cwd: string,
): Promise<RssChildReport[]> {
  const args = [String(scenario.calls), String(scenario.steps), String(scenario.tools)];
  return inBatches(
    systems.map((system) => async () => {
      const { stdout } = await spawnNode(
        [CHILD, typeof system === 'string' ? system : JSON.stringify(system), ...args],
        cwd,
      );
      return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as RssChildReport;
    }),
    2,
  );
}
