import type { ColdImports } from '../measure/measure-adapter-imports.js';
import type { CorpusCatalogueCost } from '../measure/measure-corpus-catalogue.js';
import { median } from '../measure/stats.js';
import type { StepCost } from '../wire/measure-step-costs.js';
import type { WireCostReport } from '../wire/measure-wire-cost.js';
import { formatNumber, formatRatio, formatTable } from './format-table.js';

/** One goal of the startup and Gemini rows, judged on figures of this run only. */
export interface StartupGoalRow {
  readonly path: string;
  readonly goal: string;
  readonly measured: string;
  /** `undefined`: the phase that measures it was left out of this run. */
  readonly pass: boolean | undefined;
  readonly peer: string;
}

export const CATALOGUE_MS_LIMIT = 250;
export const CATALOGUE_MB_LIMIT = 100;
export const CORE_IMPORT_MS_LIMIT = 50;
export const ADAPTER_IMPORT_MARGIN_MS = 20;
export const GEMINI_PER_KB_RATIO_LIMIT = 1.5;

const NOT_MEASURED = { measured: 'not measured in this run', pass: undefined, peer: '' } as const;

/**
 * Times are judged on CPU time (user + system) of the measured work, with the wall time beside: on the
 * shared two-core machine the wall time of a fresh process is mostly its wait for a core.
 */
export function judgeStartupGoals(
  catalogue: CorpusCatalogueCost | undefined,
  imports: ColdImports | undefined,
  wire: WireCostReport | undefined,
): StartupGoalRow[] {
  return [catalogueRow(catalogue), coreImportRow(imports), adapterImportRow(imports), geminiRow(wire)];
}

export function catalogueRow(cost: CorpusCatalogueCost | undefined): StartupGoalRow {
  const path = `\`createCatalogue\` on the whole corpus (${cost === undefined ? '~2,500' : cost.tools.toLocaleString('en-US')} tools, lenient), first call of a fresh process`;
  const goal = `≤ ${CATALOGUE_MS_LIMIT} ms and ≤ ${CATALOGUE_MB_LIMIT} MB; the same errors at registration (catalogue-compile-on-first-use.test.ts)`;
  if (cost === undefined) return { path, goal, ...NOT_MEASURED };
  const peer = cost.peer;
  return {
    path,
    goal,
    measured:
      `${formatNumber(cost.coldCpuMs)} ms CPU (wall ${formatNumber(cost.coldMs)}), +${formatNumber(cost.rssGrowthMb)} MB RSS; ` +
      `next catalogue ${formatNumber(cost.warmCpuMs)} ms CPU; ${cost.loaded} loaded, ${cost.refused} refused; median of ${cost.samples} processes`,
    pass: cost.coldCpuMs <= CATALOGUE_MS_LIMIT && cost.rssGrowthMb <= CATALOGUE_MB_LIMIT,
    peer:
      peer?.peerCpuMs === undefined
        ? ''
        : `compiling every schema at registration (as before): ${formatNumber(peer.peerCpuMs)} ms CPU (wall ${formatNumber(peer.peerMs)}), +${formatNumber(peer.peerRssGrowthMb)} MB`,
  };
}

export function coreImportRow(imports: ColdImports | undefined): StartupGoalRow {
  const path = "cold `import('@toolcircuit/core')`, fresh process";
  const goal = `≤ ${CORE_IMPORT_MS_LIMIT} ms`;
  if (imports === undefined) return { path, goal, ...NOT_MEASURED };
  const { core } = imports;
  return {
    path,
    goal,
    measured: `${formatNumber(core.importCpuMs)} ms CPU (wall ${formatNumber(core.importMs)}), median of ${core.samples}`,
    pass: core.importCpuMs <= CORE_IMPORT_MS_LIMIT,
    peer: '',
  };
}

export function adapterImportRow(imports: ColdImports | undefined): StartupGoalRow {
  const path = 'cold import of each adapter, fresh process';
  const goal = `≤ its SDK's own import + ${ADAPTER_IMPORT_MARGIN_MS} ms`;
  if (imports === undefined) return { path, goal, ...NOT_MEASURED };
  // The median of the rounds' differences: each round imports the adapter and its SDK back to back, so a
  // change in the machine's load between rounds cancels out (the SDKs' own imports, up to 400 ms, vary by
  // more than the 20 ms allowed between rounds on the shared machine).
  const over = imports.pairs.map(({ pair, adapter, sdk }) => ({
    name: pair.adapter.replace('@toolcircuit/', ''),
    extra: median(adapter.cpuSamples.map((cpuMs, round) => cpuMs - (sdk.cpuSamples[round] ?? Number.NaN))),
    wallExtra: adapter.importMs - sdk.importMs,
  }));
  return {
    path,
    goal,
    measured: over
      .map(
        (row) =>
          `${row.name} ${row.extra >= 0 ? '+' : ''}${formatNumber(row.extra)} ms CPU (wall ${row.wallExtra >= 0 ? '+' : ''}${formatNumber(row.wallExtra)})`,
      )
      .join('; ')
      .concat(`; median of ${imports.pairs[0]?.adapter.samples ?? 0} paired rounds`),
    pass: over.every((row) => row.extra <= ADAPTER_IMPORT_MARGIN_MS),
    peer: imports.pairs
      .map(({ sdk }) => `${sdk.specifier} ${formatNumber(sdk.importCpuMs)} ms CPU (wall ${formatNumber(sdk.importMs)})`)
      .join('; '),
  };
}

export function geminiRow(wire: WireCostReport | undefined): StartupGoalRow {
  const path = 'Gemini (@google/genai) request cost per extra KB of history, wire run (300 steps against 127.0.0.1)';
  const goal = `≤ ${GEMINI_PER_KB_RATIO_LIMIT}× the best adapter`;
  if (wire === undefined) return { path, goal, ...NOT_MEASURED };
  const google = wire.adapters.find((row) => row.adapter.startsWith('google'));
  const others = wire.adapters.filter((row) => row !== google && row.usPerKb > 0);
  if (google === undefined || others.length === 0) return { path, goal, ...NOT_MEASURED };
  const best = others.reduce((a, b) => (b.usPerKb < a.usPerKb ? b : a));
  const ratio = google.usPerKb / best.usPerKb;
  const generate = slopes(wire.steps);
  const googleSlope = generate.get('google');
  const bestSlope = Math.min(...[...generate].filter(([name]) => name !== 'google').map(([, slope]) => slope));
  const inProcess =
    googleSlope === undefined || !Number.isFinite(bestSlope)
      ? ''
      : `; model.generate without a socket: ${formatNumber(googleSlope)} µs/KB, ${formatRatio(googleSlope / bestSlope)} the best (${formatNumber(bestSlope)})`;
  return {
    path,
    goal,
    measured: `${formatNumber(google.usPerKb)} µs per extra KB (median of ${google.roundUsPerKb.length} rounds: ${google.roundUsPerKb.map(formatNumber).join(' / ')}), ${formatRatio(ratio)} the best${inProcess}`,
    pass: ratio <= GEMINI_PER_KB_RATIO_LIMIT,
    peer: `${best.adapter} ${formatNumber(best.usPerKb)} µs per extra KB`,
  };
}

/** Per adapter (by the first word of its label), the `model.generate` cost per extra KB from the shortest to the longest history. */
function slopes(steps: readonly StepCost[]): Map<string, number> {
  const byAdapter = new Map<string, StepCost[]>();
  for (const step of steps) {
    if (step.kind !== 'model') continue;
    const name = step.row.startsWith('openai responses') ? 'openai responses' : (step.row.split(' ')[0] ?? step.row);
    byAdapter.set(name, [...(byAdapter.get(name) ?? []), step]);
  }
  const result = new Map<string, number>();
  for (const [name, rows] of byAdapter) {
    const sorted = [...rows].sort((a, b) => a.historySteps - b.historySteps);
    const first = sorted[0];
    const last = sorted.at(-1);
    if (first === undefined || last === undefined || last.bodyBytes <= first.bodyBytes) continue;
    result.set(name, (last.us - first.us) / ((last.bodyBytes - first.bodyBytes) / 1024));
  }
  return result;
}

export function formatStartupGoals(rows: readonly StartupGoalRow[], loadAverage: string): string {
  const verdict = (pass: boolean | undefined) => (pass === undefined ? '—' : pass ? 'PASS' : 'FAIL');
  return [
    `## Goals: catalogue, cold imports, Gemini body (load average during the phase: ${loadAverage})`,
    '',
    formatTable(
      ['path', 'goal', 'measured', 'peer', 'verdict'],
      rows.map((row) => [row.path, row.goal, row.measured, row.peer, verdict(row.pass)]),
    ),
  ].join('\n');
}
