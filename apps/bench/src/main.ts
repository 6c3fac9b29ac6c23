/**
 * `pnpm bench` (`node --expose-gc dist/main.js [--quick] [--full] [--only=phases] [--json=FILE]`).
 *
 * Phases, in this order: timing (all systems alternating in THIS process), paths (one fresh process per
 * configuration: each toolcircuit path against the floor, async tools), peak RSS (one child process per
 * system), cold imports (one fresh node per sample), catalogue translation, wire cost (real adapters
 * against an instant 127.0.0.1 server in another process). Progress goes to stderr; the tables go to
 * stdout at the end, the goal table first (every row in report/goals/*-goal.ts, judged on this run).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseBenchOptions } from './bench-options.js';
import { formatContextReport } from './context/format-context-report.js';
import { type ContextFigures, measureContext } from './context/measure-context.js';
import { formatDurable } from './durable/format-durable.js';
import { type DurableReport, measureDurableRunner } from './durable/measure-durable-runner.js';
import { formatFallbackReport } from './fallback/format-fallback-report.js';
import { measureFallbackCost } from './fallback/measure-fallback-cost.js';
import { measureFallbackOverSdk } from './fallback/measure-fallback-over-sdk.js';
import type { FallbackCost } from './fallback/one-or-list.js';
import { currentLoadAverage, machineInfo } from './measure/machine-info.js';
import { matrixPlan } from './measure/matrix-plan.js';
import { type ColdImports, measureColdImports } from './measure/measure-adapter-imports.js';
import { measureCatalogueTranslation, type TranslationRow } from './measure/measure-catalogue-translation.js';
import { type CorpusCatalogueCost, measureCorpusCatalogue } from './measure/measure-corpus-catalogue.js';
import { IMPORTED_PACKAGES, type ImportTime, measureImportTimes } from './measure/measure-import-time.js';
import { measurePaths, type PathCell } from './measure/measure-paths.js';
import { measurePeakRss } from './measure/measure-peak-rss.js';
import { pathPlan } from './measure/path-plan.js';
import { profileToolcircuit } from './measure/profile-toolcircuit-child.js';
import { type MatrixCell, runMatrix } from './measure/run-matrix.js';
import { warmUpSystems } from './measure/warm-up-systems.js';
import { formatRealisticReport } from './realistic/format-realistic-report.js';
import { measureRealisticCell, type RealisticCell } from './realistic/measure-realistic-cell.js';
import type { BenchResults } from './report/bench-results.js';
import { formatProfile } from './report/format-profile.js';
import { formatWire } from './report/format-wire.js';
import { RSS_GOAL_SYSTEMS } from './report/goals/journal-rss-goal.js';
import { judgeGoals } from './report/judge-goals.js';
import {
  formatGoals,
  formatHeader,
  formatImports,
  formatMatrix,
  formatPaths,
  formatRss,
  formatTranslation,
  formatValidation,
  type RssMeasurement,
} from './report/print-report.js';
import { formatStartupGoals, judgeStartupGoals } from './report/startup-goals.js';
import { scenarioLabel } from './scenario/scenario.js';
import { formatHeldOutReport } from './search/format-held-out-report.js';
import { type HeldOutRow, measureHeldOutRecall } from './search/measure-held-out-recall.js';
import { measureSearchSpeed, type SearchSpeed } from './search/measure-search-speed.js';
import { formatServerReport } from './server/format-server-report.js';
import { measureServer, type ServerReport } from './server/measure-server.js';
import { ai7System } from './systems/ai7-system.js';
import { allSystems } from './systems/all-systems.js';
import { SYSTEM_IDS } from './systems/load-system.js';
import { measureWireCost, type WireCostReport } from './wire/measure-wire-cost.js';

const options = parseBenchOptions(process.argv.slice(2));
const benchRoot = fileURLToPath(new URL('..', import.meta.url));
const started = performance.now();
const log = (line: string) => process.stderr.write(`${line}\n`);
// Sections are printed at the end, after the goal table, which can only be judged once every phase ran.
const sections: string[] = [];
const print = (text: string) => sections.push(text);
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;

const machine = machineInfo();
const systems = allSystems();
print(formatHeader(machine, options));
print(formatValidation([...systems, ai7System('async')]));

let cells: MatrixCell[] = [];
if (options.phases.has('timing')) {
  log('warm-up (untimed):');
  await warmUpSystems(
    systems,
    options.quick ? { calls: 2_000, budgetMs: 1_000 } : { calls: 5_000, budgetMs: 3_000 },
    log,
  );
  log('timing (one process, systems alternating):');
  cells = await runMatrix(systems, matrixPlan(options), log);
}

let paths: PathCell[] = [];
if (options.phases.has('paths')) {
  log(`paths (one fresh process per configuration, systems alternating; ${elapsed()}):`);
  paths = await measurePaths(pathPlan(options), options.quick, benchRoot, log);
}

const rss: RssMeasurement[] = [];
const rssGoal: RssMeasurement[] = [];
if (options.phases.has('rss')) {
  for (const scenario of options.rssCells) {
    log(`peak RSS, ${scenarioLabel(scenario)}, one child per system (${elapsed()})`);
    rss.push({ scenario, reports: await measurePeakRss(SYSTEM_IDS, scenario, benchRoot) });
  }
  const scenario = options.rssCells.at(-1);
  if (scenario !== undefined) {
    // The journal goal's ratio: three children each, interleaved, medians (one child can land on a busy moment).
    log(`peak RSS, ${scenarioLabel(scenario)}, journal against the async floor, 3 children each (${elapsed()})`);
    const repeated = [0, 1, 2].flatMap(() => RSS_GOAL_SYSTEMS);
    rssGoal.push({ scenario, reports: await measurePeakRss(repeated, scenario, benchRoot) });
  }
}

if (cells.length > 0) print(formatMatrix(cells, rss));
if (paths.length > 0) print(formatPaths(paths));
if (rss.length > 0) print(formatRss([...rss, ...rssGoal]));

let imports: ImportTime[] = [];
if (options.phases.has('imports')) {
  log(`cold imports (${elapsed()})`);
  imports = await measureImportTimes(IMPORTED_PACKAGES, options.importSamples, benchRoot);
  print(formatImports(imports));
}

let translation: TranslationRow[] = [];
if (options.phases.has('translation')) {
  log(`catalogue translation (${elapsed()})`);
  translation = await measureCatalogueTranslation(options.translationSamples, options.realCatalogue);
  print(formatTranslation(translation));
}

let wire: WireCostReport | undefined;
if (options.phases.has('wire')) {
  log(`wire cost (${elapsed()})`);
  wire = await measureWireCost(options.wireSteps, 8, options.stepHistory, options.quick ? 1 : 5, options.stepTiming);
  print(formatWire(wire));
}

// The startup goals (catalogue on the corpus, cold imports) and the Gemini row, judged on the wire phase.
let corpusCatalogue: CorpusCatalogueCost | undefined;
let coldImports: ColdImports | undefined;
if (options.phases.has('startup')) {
  log(`startup: catalogue of the corpus, cold imports (${elapsed()})`);
  const loadBefore = currentLoadAverage();
  corpusCatalogue = await measureCorpusCatalogue(options.quick ? 1 : 5, benchRoot);
  // Nine rounds (five in the imports phase): the adapter row is a difference of two imports of up to 400 ms.
  coldImports = await measureColdImports(options.quick ? options.importSamples : 9, benchRoot);
  const load = `${loadBefore.toFixed(1)} → ${currentLoadAverage().toFixed(1)}`;
  print(formatStartupGoals(judgeStartupGoals(corpusCatalogue, coldImports, wire), load));
} else if (wire !== undefined) {
  print(formatStartupGoals(judgeStartupGoals(undefined, undefined, wire), currentLoadAverage().toFixed(1)));
}

let durable: DurableReport | undefined;
if (options.phases.has('durable')) {
  log(`durable runner against its commits, SQLite and PostgreSQL (${elapsed()})`);
  durable = await measureDurableRunner({
    scenario: { calls: 8, turns: 3 },
    rounds: options.quick ? 3 : 7,
    runsPerRound: options.quick ? 5 : 15,
    repoRoot: fileURLToPath(new URL('../../..', import.meta.url)),
    log,
  });
  print(formatDurable(durable));
}

// Tool search on held-out sets (recall by source, style and catalogue size; tuning sets apart) and its speed.
let search: { rows: HeldOutRow[]; speed: SearchSpeed } | undefined;
if (options.phases.has('search')) {
  log(`tool search: held-out recall at ${options.quick ? '600' : '100, 600 and 2,500'} tools, speed (${elapsed()})`);
  const loadBefore = currentLoadAverage();
  const rows = measureHeldOutRecall(options.quick ? { sizes: [600] } : {});
  const speed = measureSearchSpeed(options.quick ? 2 : 5);
  search = { rows, speed };
  print(formatHeldOutReport(rows, speed, `${loadBefore.toFixed(1)} → ${currentLoadAverage().toFixed(1)}`));
}

// The context policy: a 200-turn run of 20 KB results on every backend, and the policy's own cost per turn.
let context: ContextFigures | undefined;
if (options.phases.has('context')) {
  log(`context policy: 200 turns of 20 KB results on every backend, its cost per turn (${elapsed()})`);
  context = await measureContext({ quick: options.quick, log });
  print(formatContextReport(context));
}

// A fallback list that never fails, against the same run on one model: what the list adds, and the run's cost.
let fallback: FallbackCost | undefined;
let fallbackOverSdk: FallbackCost | undefined;
if (options.phases.has('fallback')) {
  log(`fallback: a list that never fails against one model, in process and through an adapter (${elapsed()})`);
  fallback = await measureFallbackCost({ rounds: options.quick ? 5 : 31 });
  fallbackOverSdk = await measureFallbackOverSdk({ rounds: options.quick ? 5 : 31 });
  print(formatFallbackReport(fallback, fallbackOverSdk));
}

// The realistic cell: a six-property schema at its defaults against the floor, each in fresh processes.
let realistic: RealisticCell | undefined;
if (options.phases.has('realistic')) {
  log(`realistic cell: a six-property schema, no runId, defaults, K=8 S=100, fresh processes (${elapsed()})`);
  realistic = await measureRealisticCell({ rounds: options.quick ? 1 : 3, cwd: process.cwd(), log });
  print(formatRealisticReport(realistic));
}

// The run server: concurrent runs over loopback HTTP, each approved by a separate client, against the runner alone.
let server: ServerReport | undefined;
if (options.phases.has('server')) {
  log(`run server: ${options.quick ? 50 : 200} concurrent runs over HTTP, each approved over HTTP (${elapsed()})`);
  server = await measureServer({
    runs: options.quick ? 50 : 200,
    rounds: options.quick ? 1 : 3,
    repoRoot: fileURLToPath(new URL('../../..', import.meta.url)),
    log,
  });
  print(formatServerReport(server));
}

const results: BenchResults = {
  options,
  cells,
  paths,
  rss,
  rssGoal,
  imports,
  translation,
  wire,
  durable,
  corpusCatalogue,
  coldImports,
  search,
  context,
  fallback,
  fallbackOverSdk,
  realistic,
  server,
};
const judged = await judgeGoals(results);

const failed = judged.find(({ verdict }) => verdict.pass === false && verdict.profile !== undefined);
if (failed?.verdict.profile !== undefined) {
  const { scenario, spec } = failed.verdict.profile;
  log(`profiling toolcircuit at ${scenarioLabel(scenario)} (${elapsed()})`);
  const summary = await profileToolcircuit(scenario, options.quick ? 2 : 4, spec);
  print(
    `## Why "${failed.row.path}: ${failed.row.goal}" failed: V8 CPU profile of toolcircuit at ${scenarioLabel(scenario)}\n\n${formatProfile(summary)}`,
  );
}

const loadAtEnd = currentLoadAverage();
print(`Done in ${elapsed()}; load average at end ${loadAtEnd.toFixed(2)}.`);
process.stdout.write(
  [sections[0] ?? '', formatGoals(judged, options.quick), ...sections.slice(1)]
    .map((section) => `${section}\n\n`)
    .join(''),
);
if (options.jsonPath !== undefined) {
  // The judged figures as they are, with the machine, the goals' verdicts and the load at the end.
  const json = {
    machine,
    ...results,
    options: { ...options, phases: [...options.phases] },
    goals: judged.map(({ row, verdict }) => ({ path: row.path, goal: row.goal, ...verdict })),
    loadAtEnd,
  };
  writeFileSync(options.jsonPath, `${JSON.stringify(json, null, 2)}\n`);
  log(`wrote ${options.jsonPath}`);
}
