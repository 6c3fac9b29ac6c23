import { fileURLToPath } from 'node:url';
import { spawnNode } from './spawn-node.js';
import { median } from './stats.js';

export interface ImportPair {
  /** The adapter package, imported from the bench. */
  readonly adapter: string;
  /** Its official SDK, imported from the adapter's own folder (the bench does not depend on it). */
  readonly sdk: string;
  readonly folder: string;
}

export const ADAPTER_SDKS: readonly ImportPair[] = [
  { adapter: '@toolcircuit/anthropic', sdk: '@anthropic-ai/sdk', folder: 'packages/anthropic' },
  { adapter: '@toolcircuit/openai', sdk: 'openai', folder: 'packages/openai' },
  { adapter: '@toolcircuit/google', sdk: '@google/genai', folder: 'packages/google' },
];

export interface ColdImport {
  readonly specifier: string;
  /** Median of `await import(specifier)` inside a fresh process, over the samples: wall time… */
  readonly importMs: number;
  /** …and the CPU time (user + system) it took, which a loaded machine inflates less. */
  readonly importCpuMs: number;
  /** Every sample's CPU time, in the order of the rounds (an adapter's i-th beside its SDK's i-th). */
  readonly cpuSamples: readonly number[];
  readonly samples: number;
}

export interface ColdImports {
  readonly core: ColdImport;
  readonly pairs: readonly { readonly pair: ImportPair; readonly adapter: ColdImport; readonly sdk: ColdImport }[];
}

// This file runs from apps/bench/{src,dist}/measure/.
const REPOSITORY = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * Cold imports for the startup goals: `@toolcircuit/core`, and each adapter beside its SDK. Every sample is
 * a fresh `node` (no module or compile cache; the OS file cache warm), and each round takes every specifier
 * once in turn, so an adapter and its SDK are sampled under the same load of the shared machine.
 */
export async function measureColdImports(samples: number, benchRoot: string): Promise<ColdImports> {
  const specs = [
    { key: 'core', specifier: '@toolcircuit/core', cwd: benchRoot },
    ...ADAPTER_SDKS.flatMap((pair) => [
      { key: `adapter:${pair.adapter}`, specifier: pair.adapter, cwd: benchRoot },
      { key: `sdk:${pair.adapter}`, specifier: pair.sdk, cwd: REPOSITORY + pair.folder },
    ]),
  ];
  const times = new Map<string, { ms: number; cpuMs: number }[]>();
  for (let sample = 0; sample < samples; sample += 1) {
    for (const spec of specs) {
      const code =
        'const c = process.cpuUsage(); const t = performance.now(); ' +
        `await import(${JSON.stringify(spec.specifier)}); ` +
        'const ms = performance.now() - t; const u = process.cpuUsage(c); ' +
        'process.stdout.write(JSON.stringify({ ms, cpuMs: (u.user + u.system) / 1000 }));';
      const { stdout } = await spawnNode(['--input-type=module', '-e', code], spec.cwd);
      times.set(spec.key, [...(times.get(spec.key) ?? []), JSON.parse(stdout) as { ms: number; cpuMs: number }]);
    }
  }
  const of = (key: string, specifier: string): ColdImport => ({
    specifier,
    importMs: median((times.get(key) ?? []).map((time) => time.ms)),
    importCpuMs: median((times.get(key) ?? []).map((time) => time.cpuMs)),
    cpuSamples: (times.get(key) ?? []).map((time) => time.cpuMs),
    samples,
  });
  return {
    core: of('core', '@toolcircuit/core'),
    pairs: ADAPTER_SDKS.map((pair) => ({
      pair,
      adapter: of(`adapter:${pair.adapter}`, pair.adapter),
      sdk: of(`sdk:${pair.adapter}`, pair.sdk),
    })),
  };
}
