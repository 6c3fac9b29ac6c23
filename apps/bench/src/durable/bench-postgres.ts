import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type BenchPostgres =
  | { readonly url: string; readonly stop: () => void }
  | { readonly url?: undefined; readonly reason: string };

/**
 * The PostgreSQL server the durable rows use: `TOOLCIRCUIT_TEST_POSTGRES_URL`, else the one
 * `scripts/postgres.sh start` already wrote the URL of, else one started here (and stopped after).
 */
export function benchPostgres(repoRoot: string): BenchPostgres {
  const fromEnv = process.env.TOOLCIRCUIT_TEST_POSTGRES_URL;
  if (fromEnv !== undefined && fromEnv !== '') return { url: fromEnv, stop: () => {} };
  const urlFile = join(repoRoot, '.toolcircuit', 'postgres-url');
  if (existsSync(urlFile)) {
    const url = readFileSync(urlFile, 'utf8').trim();
    if (url !== '') return { url, stop: () => {} };
  }
  const script = join(repoRoot, 'scripts', 'postgres.sh');
  const started = spawnSync('bash', [script, 'start'], { encoding: 'utf8', timeout: 300_000 });
  const url = started.stdout?.trim().split('\n').at(-1) ?? '';
  if (started.status !== 0 || !url.startsWith('postgres://')) {
    return {
      reason: `no PostgreSQL: \`scripts/postgres.sh start\` failed (${(started.stderr ?? '').trim().slice(0, 200)})`,
    };
  }
  return { url, stop: () => void spawnSync('bash', [script, 'stop'], { encoding: 'utf8', timeout: 120_000 }) };
}
