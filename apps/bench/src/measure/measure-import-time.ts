import { spawnNode } from './spawn-node.js';
import { median } from './stats.js';

export interface ImportTime {
  readonly specifier: string;
  /** Median time of `await import(specifier)` inside a fresh process. */
  readonly importMs: number;
  /** Median wall time of the whole `node` process (start, import, exit). */
  readonly processMs: number;
  readonly samples: number;
}

export const IMPORTED_PACKAGES = [
  '@toolcircuit/core',
  '@toolcircuit/anthropic',
  '@toolcircuit/openai',
  '@toolcircuit/google',
  'ai',
  '@openai/agents',
  'zod',
  'ajv',
] as const;

/**
 * Cold import: a fresh `node` per sample (nothing loaded, no compile cache; the OS file cache is warm,
 * as it is on a server that restarts), several samples, the median. Spawned one after the other so
 * the samples do not compete for the two cores. The first row is an empty `node` for reference.
 */
export async function measureImportTimes(
  specifiers: readonly string[],
  samples: number,
  cwd: string,
): Promise<ImportTime[]> {
  const rows: ImportTime[] = [];
  for (const specifier of ['(node itself)', ...specifiers]) {
    const imports: number[] = [];
    const walls: number[] = [];
    for (let sample = 0; sample < samples; sample += 1) {
      const code =
        specifier === '(node itself)'
          ? 'process.stdout.write("0")'
          : `const t = performance.now(); await import(${JSON.stringify(specifier)}); process.stdout.write(String(performance.now() - t));`;
      const { stdout, wallMs } = await spawnNode(['--input-type=module', '-e', code], cwd);
      imports.push(Number(stdout));
      walls.push(wallMs);
    }
    rows.push({ specifier, importMs: median(imports), processMs: median(walls), samples });
  }
  return rows;
}
