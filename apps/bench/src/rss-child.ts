/**
 * Child process entry: plays one scenario with one system, once, and prints its memory as one JSON line.
 * `node dist/rss-child.js <system id, or a system spec as JSON> <calls> <steps> <tools>`. Each system gets
 * its own process so one library's heap never counts against another's peak.
 */
import { checkRecord } from './measure/run-matrix.js';
import { createScript } from './scenario/scenario.js';
import type { SystemSpec } from './systems/bench-system.js';
import { isSystemId, loadSystem, parseSystemSpec } from './systems/load-system.js';

export interface RssChildReport {
  readonly system: string;
  readonly label: string;
  readonly spec: SystemSpec;
  /** RSS once the library is imported and the system prepared, before the conversation. */
  readonly readyRssMb: number;
  /** Peak RSS of the whole process (getrusage maxrss). */
  readonly peakRssMb: number;
  readonly heapUsedAfterMb: number;
  readonly totalMs: number;
}

const [id = '', calls = '', steps = '', tools = ''] = process.argv.slice(2);
const spec = id.startsWith('{') ? parseSystemSpec(id) : id;
if (typeof spec === 'string' && !isSystemId(spec)) throw new Error(`rss-child: unknown system "${id}"`);
const scenario = { calls: Number(calls), steps: Number(steps), tools: Number(tools) };
const system = await loadSystem(spec);
const script = createScript(scenario);
const prepared = await system.prepare(script);
const readyRssMb = process.memoryUsage.rss() / 2 ** 20;
const record = await prepared.run();
checkRecord(system, script, record);
const report: RssChildReport = {
  system: system.id,
  label: system.label,
  spec: system.spec,
  readyRssMb,
  // maxRSS is in kilobytes on Linux.
  peakRssMb: process.resourceUsage().maxRSS / 1024,
  heapUsedAfterMb: process.memoryUsage().heapUsed / 2 ** 20,
  totalMs: record.totalMs,
};
process.stdout.write(`${JSON.stringify(report)}\n`);
