import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface CpuProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly CpuProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface HotSpot {
  readonly frame: string;
  readonly owner: string;
  readonly selfMs: number;
  readonly percent: number;
}

export interface ProfileSummary {
  readonly file: string;
  readonly totalMs: number;
  readonly frames: readonly HotSpot[];
  readonly owners: readonly { readonly owner: string; readonly selfMs: number; readonly percent: number }[];
  /**
   * Time charged to the nearest toolcircuit core function on the stack: its own code plus the builtins,
   * ajv and node:crypto work it called (but not other core functions, which get their own row).
   */
  readonly core: readonly HotSpot[];
}

/** Self time per function and per owner (package) from the newest `.cpuprofile` in `directory`. */
export function summarizeProfile(directory: string, top = 15): ProfileSummary {
  const file = readdirSync(directory)
    .filter((name) => name.endsWith('.cpuprofile'))
    .sort()
    .at(-1);
  if (file === undefined) throw new Error(`No .cpuprofile in ${directory}.`);
  const profile = JSON.parse(readFileSync(join(directory, file), 'utf8')) as CpuProfile;
  const selfById = new Map<number, number>();
  profile.samples.forEach((id, index) => {
    selfById.set(id, (selfById.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  const frames = new Map<string, { owner: string; micros: number }>();
  const owners = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const micros = selfById.get(node.id) ?? 0;
    if (micros === 0 || node.callFrame.functionName === '(idle)') continue;
    total += micros;
    const owner = ownerOf(node.callFrame.url, node.callFrame.functionName);
    const key = `${node.callFrame.functionName || '(anonymous)'} ${shortUrl(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;
    const entry = frames.get(key) ?? { owner, micros: 0 };
    entry.micros += micros;
    frames.set(key, entry);
    owners.set(owner, (owners.get(owner) ?? 0) + micros);
  }
  const percent = (micros: number) => (100 * micros) / Math.max(total, 1);
  const core = chargeToCore(profile, selfById);
  return {
    file: join(directory, file),
    totalMs: total / 1000,
    frames: [...frames.entries()]
      .sort((a, b) => b[1].micros - a[1].micros)
      .slice(0, top)
      .map(([frame, { owner, micros }]) => ({ frame, owner, selfMs: micros / 1000, percent: percent(micros) })),
    owners: [...owners.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([owner, micros]) => ({ owner, selfMs: micros / 1000, percent: percent(micros) })),
    core: [...core.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([frame, micros]) => ({
        frame,
        owner: 'toolcircuit core',
        selfMs: micros / 1000,
        percent: percent(micros),
      })),
  };
}

function chargeToCore(profile: CpuProfile, selfById: ReadonlyMap<number, number>): Map<string, number> {
  const parent = new Map<number, number>();
  const byId = new Map<number, CpuProfileNode>();
  for (const node of profile.nodes) {
    byId.set(node.id, node);
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const charged = new Map<string, number>();
  for (const [id, micros] of selfById) {
    for (let current: number | undefined = id; current !== undefined; current = parent.get(current)) {
      const node = byId.get(current);
      if (node === undefined) break;
      if (ownerOf(node.callFrame.url, node.callFrame.functionName) !== 'toolcircuit core') continue;
      const key = `${node.callFrame.functionName || '(anonymous)'} ${shortUrl(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;
      charged.set(key, (charged.get(key) ?? 0) + micros);
      break;
    }
  }
  return charged;
}

function ownerOf(url: string, functionName: string): string {
  if (functionName.startsWith('(')) return functionName; // (garbage collector), (program)
  if (url.includes('/packages/core/') || url.includes('@toolcircuit/core')) return 'toolcircuit core';
  if (url.includes('/ajv/')) return 'ajv';
  if (url.includes('/apps/bench/')) return 'bench (scripted model, tool)';
  if (url.startsWith('node:')) return url;
  if (url === '') return 'V8 / native';
  return 'other';
}

function shortUrl(url: string): string {
  return url.split('/').slice(-2).join('/');
}
