import type { BenchOptions } from '../bench-options.js';
import type { MachineInfo } from '../measure/machine-info.js';
import type { TranslationRow } from '../measure/measure-catalogue-translation.js';
import type { ImportTime } from '../measure/measure-import-time.js';
import type { PathCell } from '../measure/measure-paths.js';
import type { MatrixCell } from '../measure/run-matrix.js';
import { scenarioLabel } from '../scenario/scenario.js';
import type { BenchSystem } from '../systems/bench-system.js';
import type { RssMeasurement } from './bench-results.js';
import { formatNumber, formatRatio, formatTable } from './format-table.js';
import type { GoalRow, GoalVerdict } from './goals/goal-row.js';
import { resultOf } from './result-of.js';

export type { RssMeasurement } from './bench-results.js';

export function formatHeader(machine: MachineInfo, options: BenchOptions): string {
  const versions = Object.entries(machine.versions)
    .map(([name, version]) => `${name} ${version}`)
    .join(', ');
  return [
    `# toolcircuit benchmark${options.quick ? ' (--quick)' : ''}${options.full ? ' (--full)' : ''}`,
    '',
    `Machine: ${machine.nproc} cores, ${machine.cpuModel}, ${formatNumber(machine.memoryGb)} GB, node ${machine.node}, load average at start ${machine.loadAverage.toFixed(2)}`,
    `Versions: ${versions}`,
    machine.gcExposed
      ? 'A GC runs before every timed run (--expose-gc; young generation, full once the heap grew 16 MB).'
      : 'WARNING: run with node --expose-gc.',
  ].join('\n');
}

export function formatValidation(systems: readonly BenchSystem[]): string {
  return [
    '## Validation in each system',
    '',
    ...systems.map((system) => `- **${system.label}**: ${system.validation}`),
  ].join('\n');
}

/** The main table: one row per system and cell. */
export function formatMatrix(cells: readonly MatrixCell[], rss: readonly RssMeasurement[]): string {
  const rows: string[][] = [];
  for (const cell of cells) {
    const circuit = resultOf(cell, 'toolcircuit')?.metrics;
    const cellRss = rss.find((entry) => scenarioLabel(entry.scenario) === scenarioLabel(cell.scenario));
    for (const result of cell.results) {
      const metrics = result.metrics;
      const peak = cellRss?.reports.find((report) => report.system === result.id)?.peakRssMb;
      if (metrics === undefined) {
        rows.push([
          scenarioLabel(cell.scenario),
          result.label,
          '0',
          result.skipped ?? 'skipped',
          '',
          '',
          '',
          '',
          '',
          '',
          '',
        ]);
        continue;
      }
      rows.push([
        scenarioLabel(cell.scenario),
        result.label,
        String(result.rounds),
        formatNumber(metrics.perCallUs),
        formatNumber(metrics.bestPerCallUs),
        formatNumber(metrics.perStepUs),
        formatNumber(metrics.first10Us),
        formatNumber(metrics.last10Us),
        formatNumber(metrics.last10Us / metrics.first10Us),
        peak === undefined ? '' : formatNumber(peak),
        circuit === undefined ? '—' : formatRatio(metrics.perCallUs / circuit.perCallUs),
      ]);
    }
  }
  return [
    '## Cost per call and per step (medians over the rounds; µs)',
    '',
    formatTable(
      [
        'cell',
        'system',
        'runs',
        'µs/call',
        'best µs/call',
        'µs/step',
        'first 10 µs/step',
        'last 10 µs/step',
        'last/first',
        'peak RSS MB',
        '× toolcircuit',
      ],
      rows,
    ),
  ].join('\n');
}

export function formatRss(rss: readonly RssMeasurement[]): string {
  const rows = rss.flatMap((entry) =>
    entry.reports.map((report) => [
      scenarioLabel(entry.scenario),
      report.label ?? report.system,
      formatNumber(report.readyRssMb),
      formatNumber(report.peakRssMb),
      formatNumber(report.peakRssMb - report.readyRssMb),
      formatNumber(report.heapUsedAfterMb),
      formatNumber(report.totalMs / 1000),
    ]),
  );
  return [
    '## Peak RSS, one child process per system (MB)',
    '',
    formatTable(
      ['cell', 'system', 'RSS when ready', 'peak RSS', 'peak − ready', 'heap used after', 'run s (alone)'],
      rows,
    ),
  ].join('\n');
}

/** The goal table: one row per goal, PASS/FAIL, the peer's figure beside; every figure from this run. */
export function formatGoals(
  rows: readonly { readonly row: GoalRow; readonly verdict: GoalVerdict }[],
  quick: boolean,
): string {
  return [
    '## Goals',
    '',
    ...(quick
      ? ["Quick run (`--quick`): S ≤ 50 and fewer rounds, not the goals' S=100 / S=500; indicative only.", '']
      : []),
    formatTable(
      ['path', 'goal', 'measured (this run)', 'verdict', 'peer beside'],
      rows.map(({ row, verdict }) => [
        row.path,
        row.goal,
        verdict.measured,
        verdict.pass === undefined ? 'not measured' : verdict.pass ? 'PASS' : 'FAIL',
        verdict.peer,
      ]),
    ),
  ].join('\n');
}

/** The paths phase in full: every configuration, each system's figures. */
export function formatPaths(cells: readonly PathCell[]): string {
  const rows: string[][] = [];
  for (const cell of cells) {
    // The plain floor, not the one keeping a journal.
    const floor = cell.results.find(
      (result) => result.id === 'hand-written' && result.spec.journal !== true && result.metrics !== undefined,
    )?.metrics;
    for (const result of cell.results) {
      const metrics = result.metrics;
      rows.push([
        cell.name,
        scenarioLabel(cell.scenario),
        result.label,
        String(result.rounds),
        formatNumber(metrics?.cpuPerCallUs),
        formatNumber(metrics?.bestCpuPerCallUs),
        floor?.cpuPerCallUs === undefined || metrics?.cpuPerCallUs === undefined
          ? '—'
          : formatRatio(metrics.cpuPerCallUs / floor.cpuPerCallUs),
        formatNumber(metrics?.perCallUs),
        formatNumber(metrics?.bestPerCallUs),
        floor === undefined || metrics === undefined ? '—' : formatRatio(metrics.perCallUs / floor.perCallUs),
        metrics === undefined ? '' : formatNumber(metrics.last10Us / metrics.first10Us),
      ]);
    }
  }
  return [
    "## Paths: each configuration in a fresh process, systems alternating (medians over the rounds; µs; CPU = this process's user + system time)",
    '',
    formatTable(
      [
        'process',
        'cell',
        'system',
        'runs',
        'CPU µs/call',
        'best CPU µs/call',
        'CPU × floor',
        'wall µs/call',
        'best wall µs/call',
        'wall × floor',
        'last/first',
      ],
      rows,
    ),
  ].join('\n');
}

export function formatImports(rows: readonly ImportTime[]): string {
  return [
    `## Cold import (fresh node per sample, median of ${rows[0]?.samples ?? 0}; ms)`,
    '',
    formatTable(
      ['package', 'await import()', 'whole process'],
      rows.map((row) => [row.specifier, formatNumber(row.importMs), formatNumber(row.processMs)]),
    ),
  ].join('\n');
}

export function formatTranslation(rows: readonly TranslationRow[]): string {
  return [
    '## Catalogue translation (median; ms)',
    '',
    formatTable(
      ['catalogue', 'tools', 'step', 'paid', 'ms'],
      rows.map((row) => [row.catalogue, String(row.tools), row.step, row.when, formatNumber(row.ms)]),
    ),
  ].join('\n');
}
