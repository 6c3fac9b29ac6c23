/**
 * Child process of the realistic cell: plays ONE configuration alone in this fresh process, `runs`
 * conversations timed one by one from the first (no warm-up), and prints the CPU µs per call of each as one
 * JSON line. `node dist/realistic/realistic-child.js <system> <runs>`.
 */
import {
  REALISTIC_SYSTEMS,
  type RealisticChildReport,
  type RealisticSystem,
  realisticPlayers,
  realisticTurns,
} from './measure-realistic-cell.js';

const [name = '', runs = '40'] = process.argv.slice(2);
if (!(REALISTIC_SYSTEMS as readonly string[]).includes(name)) throw new Error(`Unknown configuration "${name}".`);
const turns = realisticTurns(8, 100);
const calls = turns.reduce((sum, turn) => sum + turn.length, 0);
const play = realisticPlayers(turns)[name as RealisticSystem];
const cpuUs: number[] = [];
for (let run = 0; run < Number(runs); run += 1) {
  const start = process.cpuUsage();
  await play();
  const used = process.cpuUsage(start);
  cpuUs.push((used.user + used.system) / calls);
}
const report: RealisticChildReport = { cpuUs };
process.stdout.write(`${JSON.stringify(report)}\n`);
