// A run server SIGKILLed with 50 runs paused on approvals and 50 runs mid-turn (25 with a tool running, 25
// with a model request in flight), then started again over the same SQLite file: every run completes,
// nothing runs twice, every approval pending before the kill is listed and decided over HTTP, and a reader
// of a run's events cut by the kill resumes on the new process with Last-Event-ID, missing and repeating
// nothing (the events are in the store). The
// server is a child process on the built packages (fixtures/restart-server.mjs), on 127.0.0.1. The tool
// and the model block in the first process, so "mid-turn" is a state the test waits for, not a timing.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSse, readAll, type SseFrame } from './support/sse.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'toolcircuit-server-restart-'));
const PAUSED = 50;
const MID = 50;
/** The lease the first server holds on its runs; the second takes them over once it ended. */
const LEASE_MS = 1000;
/** Every wait fails after this (no timing assertion: only a bound on a test that would otherwise hang). */
const BOUND_MS = 90_000;

// The child runs the built packages: build the server and what it depends on (cached when unchanged).
beforeAll(() => {
  execFileSync(
    'pnpm',
    ['exec', 'turbo', 'run', 'build', '--filter=@toolcircuit/server...', '--output-logs=errors-only'],
    {
      cwd: join(here, '..', '..', '..'),
      stdio: 'pipe',
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
    },
  );
}, 180_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Effect {
  readonly key?: string;
  readonly tool?: string;
  readonly blocked?: string;
  readonly recovered?: string;
  readonly status?: string;
  readonly unknown?: number;
}

function effectsIn(file: string): Effect[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Effect);
}

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + BOUND_MS;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${BOUND_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface Child {
  readonly api: string;
  readonly child: ChildProcess;
  readonly exited: Promise<NodeJS.Signals | null>;
}

async function startServer(config: Record<string, unknown> & { ready: string }): Promise<Child> {
  const child = spawn(process.execPath, [join(here, 'fixtures', 'restart-server.mjs'), JSON.stringify(config)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  await until(() => {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}): ${stderr}`);
    return existsSync(config.ready) && readFileSync(config.ready, 'utf8') !== '';
  }, 'the server to listen');
  return { api: readFileSync(config.ready, 'utf8').trim(), child, exited };
}

function call(api: string, path: string, body?: unknown): Promise<Response> {
  return fetch(new URL(path, api), {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: 'Bearer marie', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

interface Approval {
  readonly runId: string;
  readonly callId: string;
  readonly toolName: string;
  readonly input: { readonly ref: string };
  readonly inputDigest: string;
}

async function approvalsOf(api: string): Promise<Approval[]> {
  const answer = await call(api, 'approvals');
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { approvals: Approval[] }).approvals;
}

function statuses(file: string): Record<string, number> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare('SELECT status, COUNT(*) AS n FROM runs GROUP BY status').all() as {
      status: string;
      n: number;
    }[];
    return Object.fromEntries(rows.map((row) => [row.status, row.n]));
  } finally {
    db.close();
  }
}

describe('a run server killed mid-run (SIGKILL) and started again on the same SQLite store', () => {
  it('completes every run, runs no tool twice, keeps every pending approval decidable over HTTP, and resumes an event stream', async () => {
    const file = join(root, 'runs.sqlite');
    const effects = join(root, 'effects.jsonl');
    const base = { file, effects, leaseMs: LEASE_MS };

    // First life: 50 runs pause on an irreversible payment, 50 are left mid-turn.
    const first = await startServer({ ...base, ready: join(root, 'ready-1'), block: true, sessionId: 'marie-1' });
    const pausedRuns = await Promise.all(
      Array.from({ length: PAUSED }, async (_, n) => {
        const answer = await call(first.api, 'runs', { prompt: `pay INV-${n}` });
        expect(answer.status).toBe(201);
        const { run } = (await answer.json()) as { run: { id: string; status: string } };
        expect(run.status).toBe('paused');
        return run.id;
      }),
    );
    const before = await approvalsOf(first.api);
    expect(before).toHaveLength(PAUSED);
    // Their answers never come: the first process dies under them.
    const cut = Array.from({ length: MID }, (_, n) =>
      call(first.api, 'runs', { prompt: `${n % 2 === 0 ? 'step' : 'think'} R-${n}` }).then(
        () => 'answered',
        () => 'cut',
      ),
    );
    await until(() => {
      const seen = effectsIn(effects);
      return (
        seen.filter((line) => line.tool === 'slow_step').length === MID / 2 &&
        seen.filter((line) => line.blocked === 'model').length === MID / 2
      );
    }, 'every mid-turn run to reach its blocked tool or model request');
    const killedAt = performance.now();
    // A reader follows one run whose tool is running, up to the kill (its stream is cut then).
    const stepRun = effectsIn(effects)
      .find((line) => line.tool === 'slow_step')
      ?.key?.split('/')[0] as string;
    const followed = await openSse(first.api.replace(/\/$/, ''), `/runs/${stepRun}/events`, { token: 'marie' });
    const seen: SseFrame[] = [];
    const following = (async () => {
      try {
        for (let frame = await followed.reader.next(); frame !== undefined; frame = await followed.reader.next()) {
          seen.push(frame);
        }
      } catch {
        // The connection is cut by the kill.
      }
    })();
    await until(() => seen.some((frame) => frame.event === 'turn-end'), 'the reader to get the turn');
    // Events are written in batches within 100 ms; those of the last moments before a kill may be lost.
    await new Promise((resolve) => setTimeout(resolve, 300));
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    expect(await Promise.all(cut)).toEqual(Array(MID).fill('cut'));
    expect(statuses(file)).toEqual({ paused: PAUSED, resuming: MID });

    // Second life, another login of the same human: it takes over the mid-turn runs once their lease ended.
    const restartedAt = performance.now();
    const second = await startServer({ ...base, ready: join(root, 'ready-2'), block: false, sessionId: 'marie-2' });
    try {
      const listeningMs = performance.now() - restartedAt;
      await until(
        () => effectsIn(effects).filter((line) => line.recovered !== undefined).length === MID,
        'the mid-turn runs to be recovered',
      );
      const recoveredMs = performance.now() - restartedAt;
      const sinceKillMs = performance.now() - killedAt;
      const recovered = effectsIn(effects).filter((line) => line.recovered !== undefined);
      expect(new Set(recovered.map((line) => line.recovered)).size).toBe(MID);
      expect(recovered.every((line) => line.status === 'completed')).toBe(true);
      // The tools that were running when the process died are reported "outcome unknown", never run again;
      // the model requests in flight are asked again, and their calls run once, here.
      expect(recovered.filter((line) => line.unknown === 1)).toHaveLength(MID / 2);
      expect(recovered.filter((line) => line.unknown === 0)).toHaveLength(MID / 2);

      // The reader reconnects to the new process with the id of the last event it got: it gets the rest
      // of the run (taken over here), nothing twice, and everything read from the start matches.
      await following;
      expect(seen.length).toBeGreaterThan(0);
      const api = second.api.replace(/\/$/, '');
      const rest = await readAll(
        (await openSse(api, `/runs/${stepRun}/events`, { token: 'marie', lastEventId: seen.at(-1)?.id as string }))
          .reader,
      );
      expect(rest.at(-1)).toEqual({ event: 'end', data: { runId: stepRun, status: 'completed' } });
      expect(rest.some((frame) => frame.event === 'loop-end')).toBe(true);
      const whole = await readAll((await openSse(api, `/runs/${stepRun}/events?after=0`, { token: 'marie' })).reader);
      expect(whole).toEqual([...seen, ...rest]);

      // Every approval pending before the kill is listed, with the same arguments, and decided over HTTP.
      const after = await approvalsOf(second.api);
      const key = (approval: Approval) => `${approval.runId}/${approval.callId}/${approval.inputDigest}`;
      expect(after.map(key).sort()).toEqual(before.map(key).sort());
      const decidingAt = performance.now();
      const decided = await Promise.all(
        after.map(async (approval) => {
          const answer = await call(second.api, `runs/${approval.runId}/decisions`, {
            decisions: [{ callId: approval.callId, approved: true, inputDigest: approval.inputDigest }],
          });
          expect(answer.status).toBe(200);
          return ((await answer.json()) as { run: { status: string } }).run.status;
        }),
      );
      const decidedMs = performance.now() - decidingAt;
      expect(decided).toEqual(Array(PAUSED).fill('completed'));
      for (const runId of pausedRuns.slice(0, 5)) {
        const { run } = (await (await call(second.api, `runs/${runId}`)).json()) as { run: { status: string } };
        expect(run.status).toBe('completed');
      }
      expect(statuses(file)).toEqual({ completed: PAUSED + MID });

      // Nothing ran twice: each call's execution is in the side file once, in whichever life it ran.
      const executed = effectsIn(effects).filter((line) => line.key !== undefined);
      expect(new Set(executed.map((line) => line.key)).size).toBe(executed.length);
      const byTool = (tool: string) => executed.filter((line) => line.tool === tool).length;
      expect([byTool('pay_invoice'), byTool('slow_step'), byTool('write_note')]).toEqual([PAUSED, MID / 2, MID / 2]);

      console.info(
        `[server-restart] ${PAUSED} paused + ${MID} mid-turn runs, lease ${LEASE_MS} ms: listening again in ` +
          `${listeningMs.toFixed(0)} ms, ${MID} mid-turn runs completed ${recoveredMs.toFixed(0)} ms after the ` +
          `restart (${sinceKillMs.toFixed(0)} ms after the kill); ${PAUSED} approvals decided over HTTP in ${decidedMs.toFixed(0)} ms; ` +
          `${PAUSED + MID}/${PAUSED + MID} runs completed, ${executed.length} tool executions, none twice.`,
      );
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  }, 240_000);
});
