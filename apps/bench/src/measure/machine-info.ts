import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';

export interface MachineInfo {
  readonly nproc: number;
  readonly cpuModel: string;
  readonly node: string;
  readonly memoryGb: number;
  /** 1-minute load average when asked: the two cores are shared, so a busy machine is worth knowing. */
  readonly loadAverage: number;
  readonly versions: Readonly<Record<string, string>>;
  readonly gcExposed: boolean;
}

const PACKAGES = ['@toolcircuit/core', 'ai', '@openai/agents', 'zod', 'ajv'] as const;

export function machineInfo(): MachineInfo {
  const versions: Record<string, string> = {};
  for (const name of PACKAGES) versions[name] = packageVersion(name);
  return {
    nproc: availableParallelism(),
    cpuModel: cpus()[0]?.model ?? 'unknown',
    node: process.version,
    memoryGb: totalmem() / 2 ** 30,
    loadAverage: loadavg()[0] ?? 0,
    versions,
    gcExposed: typeof (globalThis as { gc?: unknown }).gc === 'function',
  };
}

/** Read from the bench's own node_modules (the packages do not all export their package.json). */
function packageVersion(name: string): string {
  try {
    const path = fileURLToPath(new URL(`../../node_modules/${name}/package.json`, import.meta.url));
    return (JSON.parse(readFileSync(path, 'utf8')) as { version?: string }).version ?? '?';
  } catch {
    return '?';
  }
}

export function currentLoadAverage(): number {
  return loadavg()[0] ?? 0;
}
