// The server phase's two sides do the same work: runs played over HTTP (one client starts, another approves)
// and the same runs through the durable runner alone, on one SQLite file, each completing with its one
// irreversible call run once; the goal rows judge the figures they are handed (no timing is asserted here).
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '@toolcircuit/stores/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { parseBenchOptions } from '../../src/bench-options.js';
import { serverDecisionLatencyGoal, serverSqliteCpuGoal } from '../../src/report/goals/run-server-goal.js';
import type { ServerFigures } from '../../src/server/measure-server.js';
import { playOverHttp } from '../../src/server/server-client.js';
import { startServerSide } from '../../src/server/server-side.js';
import { resultsOf } from '../support/results-of.js';

const dir = mkdtempSync(join(tmpdir(), 'toolcircuit-bench-server-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('server phase', () => {
  it('over HTTP and through the runner alone, every run completes and its tool runs once, stamped after its decision', async () => {
    const store = await openSqliteStore({ dataDir: dir });
    const side = await startServerSide(store);
    const clients = { starter: new Agent({ keepAlive: true }), decider: new Agent({ keepAlive: true }) };
    try {
      for (const decide of ['as-each-pauses', 'one-at-a-time'] as const) {
        side.beginHttpBatch();
        const played = await playOverHttp(clients, side.port, 6, decide, decide);
        const report = await side.endHttpBatch(played.runIds);
        expect(played.runIds).toHaveLength(6);
        expect([...played.failed]).toEqual([]);
        expect(report).toMatchObject({ lost: [], twice: 0 });
        expect(report.cpuMs).toBeGreaterThan(0);
        for (const runId of played.runIds) {
          expect(report.toolStartedAt[runId]).toBeGreaterThanOrEqual(played.decidedAt.get(runId) ?? Number.NaN);
        }
      }
      const direct = await side.playDirect(['direct-1', 'direct-2', 'direct-3']);
      expect(direct).toMatchObject({ lost: [], twice: 0 });
      expect(direct.latenciesMs).toHaveLength(3);
      // A run that never completed is reported lost, not counted as done.
      const missing = await side.endHttpBatch(['no-such-run']);
      expect(missing.lost).toEqual(['no-such-run']);
      const kinds = (await store.readJournal({ runId: 'direct-1' })).map((row) => row.record.kind);
      expect(kinds.filter((kind) => kind === 'decision')).toHaveLength(1);
    } finally {
      clients.starter.destroy();
      clients.decider.destroy();
      await side.close();
      await store.close();
    }
  });

  it('the rows fail a server that loses or repeats a run, however cheap, and judge the CPU and the p95 against their goals', () => {
    const figures: ServerFigures = {
      backend: 'SQLite',
      runs: 200,
      rounds: 3,
      lost: 0,
      twice: 0,
      runsChecked: 1400,
      runsPerSecond: 300,
      peerRunsPerSecond: 500,
      decisionToToolMs: { p50: 5, p95: 12, max: 30 },
      oneAtATimeMs: { p50: 2, p95: 3 },
      peerDecisionToToolMs: { p50: 3, p95: 8 },
      cpuMsPerRun: { server: 3, runner: 1.5 },
      addedCpuMsPerRun: 1.5,
      addedCpuRounds: [1.4, 1.5, 1.6],
      peakRssBytes: 120e6,
    };
    const options = parseBenchOptions(['--only=server']);
    const judge = (changed: Partial<ServerFigures>) => {
      const results = resultsOf({
        options,
        server: { figures: [{ ...figures, ...changed }], loadBefore: 1, loadAfter: 1 },
      });
      return [serverSqliteCpuGoal.judge(results).pass, serverDecisionLatencyGoal.judge(results).pass];
    };
    expect(judge({})).toEqual([true, true]);
    expect(judge({ lost: 1 })).toEqual([false, false]);
    expect(judge({ twice: 1 })).toEqual([false, false]);
    expect(judge({ addedCpuMsPerRun: 2.5 })).toEqual([false, true]);
    expect(judge({ decisionToToolMs: { p50: 5, p95: 25, max: 30 } })).toEqual([true, false]);
    const notRun = resultsOf({ options: parseBenchOptions(['--only=durable']) });
    expect(serverSqliteCpuGoal.judge(notRun).pass).toBeUndefined();
  });
});
