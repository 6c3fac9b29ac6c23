/**
 * `pnpm bench` (`node --expose-gc dist/main.js [--quick] [--full] [--only=phases] [--json=FILE]`).
 *
 * Phases, in this order: timing (all systems alternating in THIS process), peak RSS (one child process
 * per system), cold imports (one fresh node per sample), catalogue translation, wire cost (real adapters
 * against an instant 127.0.0.1 server in another process). Tables go to stdout, progress to stderr.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseBenchOptions } from './bench-options.js';
import { currentLoadAverage, machineInfo } from './measure/machine-info.js';
import { matrixPlan } from './measure/matrix-plan.js';
import { type ColdImports, measureColdImports } from './measure/measure-adapter-imports.js';
import { measureCatalogueTranslation, type TranslationRow } from './measure/measure-catalogue-translation.js';
import { type CorpusCatalogueCost, measureCorpusCatalogue } from './measure/measure-corpus-catalogue.js';
import { IMPORTED_PACKAGES, type ImportTime, measureImportTimes } from './measure/measure-import-time.js';
import { measurePeakRss } from './measure/measure-peak-rss.js';
import { profileToolcircuit } from './measure/profile-toolcircuit-child.js';
import { type MatrixCell, runMatrix } from './measure/run-matrix.js';
import { warmUpSystems } from './measure/warm-up-systems.js';
import { formatProfile } from './report/format-profile.js';
import { formatWire } from './report/format-wire.js';
import { judgeGoals } from './report/goals.js';
import {
  formatGoals,
  formatHeader,
  formatImports,
  formatMatrix,
  formatRss,
  formatTranslation,
  formatValidation,
  formatVariants,
  type RssMeasurement,
} from './report/print-report.js';
import { formatStartupGoals, judgeStartupGoals } from './report/startup-goals.js';
import { scenarioLabel } from './scenario/scenario.js';
import { allSystems } from './systems/all-systems.js';
import { handWrittenSystem } from './systems/hand-written-system.js';
import { SYSTEM_IDS } from './systems/load-system.js';
import { toolcircuitSystem } from './systems/toolcircuit-system.js';
import { measureWireCost, type WireCostReport } from './wire/measure-wire-cost.js';

const options = parseBenchOptions(process.argv.slice(2));
const benchRoot = fileURLToPath(new URL('..', import.meta.url));
const started = performance.now();
const log = (line: string) => process.stderr.write(`${line}\n`);
const print = (text: string) => process.stdout.write(`${text}\n\n`);
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;

const machine = machineInfo();
const systems = allSystems();
print(formatHeader(machine, options));
print(formatValidation(systems));

let cells: MatrixCell[] = [];
let variants: MatrixCell[] = [];
if (options.phases.has('timing')) {
  log('warm-up (untimed):');
  await warmUpSystems(
    systems,
    options.quick ? { calls: 2_000, budgetMs: 1_000 } : { calls: 5_000, budgetMs: 3_000 },
    log,
  );
  log('timing (one process, systems alternating):');
  cells = await runMatrix(systems, matrixPlan(options), log);
  const variantSystems = [
    toolcircuitSystem(),
    toolcircuitSystem({ journal: true }),
    toolcircuitSystem({ schema: 'zod' }),
    toolcircuitSystem({ schema: 'zod', journal: true }),
    toolcircuitSystem({ loop: 'stream' }),
    handWrittenSystem(),
  ];
  variants = await runMatrix(
    variantSystems,
    { cells: [options.goalCell], rounds: () => 7, skipReason: () => '', warmUp: () => true },
    log,
  );
}

const rss: RssMeasurement[] = [];
if (options.phases.has('rss')) {
  for (const scenario of options.rssCells) {
    log(`peak RSS, ${scenarioLabel(scenario)}, one child per system (${elapsed()})`);
    rss.push({ scenario, reports: await measurePeakRss(SYSTEM_IDS, scenario, benchRoot) });
  }
}

if (cells.length > 0) print(formatMatrix(cells, rss));
if (rss.length > 0) print(formatRss(rss));
const goals = judgeGoals(cells, rss, options);
print(formatGoals(goals, options.quick));
const variantCell = variants[0];
if (variantCell !== undefined) print(formatVariants(variantCell));

for (const goal of goals) {
  if (goal.pass !== false || goal.profileCell === undefined) continue;
  log(`profiling toolcircuit at ${scenarioLabel(goal.profileCell)} (${elapsed()})`);
  const summary = await profileToolcircuit(goal.profileCell, options.quick ? 2 : 4);
  print(
    `## Why "${goal.goal}" failed: V8 CPU profile of toolcircuit at ${scenarioLabel(goal.profileCell)}\n\n${formatProfile(summary)}`,
  );
  break;
}

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
  wire = await measureWireCost(options.wireSteps, 8, options.stepHistory, options.quick ? 1 : 2, options.stepTiming);
  print(formatWire(wire));
}

// The startup goals (catalogue on the corpus, cold imports) and the Gemini row, judged on the wire phase.
let corpusCatalogue: CorpusCatalogueCost | undefined;
let coldImports: ColdImports | undefined;
if (options.phases.has('startup')) {
  log(`startup: catalogue of the corpus, cold imports (${elapsed()})`);
  const loadBefore = currentLoadAverage();
  corpusCatalogue = await measureCorpusCatalogue(options.quick ? 1 : 5, benchRoot);
  coldImports = await measureColdImports(options.importSamples, benchRoot);
  const load = `${loadBefore.toFixed(1)} → ${currentLoadAverage().toFixed(1)}`;
  print(formatStartupGoals(judgeStartupGoals(corpusCatalogue, coldImports, wire), load));
} else if (wire !== undefined) {
  print(formatStartupGoals(judgeStartupGoals(undefined, undefined, wire), currentLoadAverage().toFixed(1)));
}

const loadAtEnd = currentLoadAverage();
print(`Done in ${elapsed()}; load average at end ${loadAtEnd.toFixed(2)}.`);
if (options.jsonPath !== undefined) {
  const results = {
    machine,
    options: { ...options, phases: [...options.phases] },
    cells,
    variants,
    rss,
    goals,
    imports,
    translation,
    wire,
    corpusCatalogue,
    coldImports,
    loadAtEnd,
  };
  writeFileSync(options.jsonPath, `${JSON.stringify(results, null, 2)}\n`);
  log(`wrote ${options.jsonPath}`);
}
