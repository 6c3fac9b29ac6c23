import type { BenchOptions } from '../bench-options.js';
import type { ContextFigures } from '../context/measure-context.js';
import type { DurableReport } from '../durable/measure-durable-runner.js';
import type { FallbackCost } from '../fallback/one-or-list.js';
import type { ColdImports } from '../measure/measure-adapter-imports.js';
import type { TranslationRow } from '../measure/measure-catalogue-translation.js';
import type { CorpusCatalogueCost } from '../measure/measure-corpus-catalogue.js';
import type { ImportTime } from '../measure/measure-import-time.js';
import type { PathCell } from '../measure/measure-paths.js';
import type { MatrixCell } from '../measure/run-matrix.js';
import type { RealisticCell } from '../realistic/measure-realistic-cell.js';
import type { RssChildReport } from '../rss-child.js';
import type { Scenario } from '../scenario/scenario.js';
import type { HeldOutRow } from '../search/measure-held-out-recall.js';
import type { SearchSpeed } from '../search/measure-search-speed.js';
import type { ServerReport } from '../server/measure-server.js';
import type { WireCostReport } from '../wire/measure-wire-cost.js';

export interface RssMeasurement {
  readonly scenario: Scenario;
  readonly reports: readonly RssChildReport[];
}

/**
 * Every figure of one `pnpm bench` run, as the goal rows read it. A phase left out (`--only=`) leaves its
 * field empty, and the rows that need it report "not measured". A new phase adds its field here.
 */
export interface BenchResults {
  readonly options: BenchOptions;
  /** The timing phase: every system alternating in the bench's own process (synchronous tool). */
  readonly cells: readonly MatrixCell[];
  /** The paths phase: one fresh process per configuration (see `pathPlan`). */
  readonly paths: readonly PathCell[];
  /** The rss phase: one child per system and cell. */
  readonly rss: readonly RssMeasurement[];
  /** The rss phase: repeated children for the peak-RSS goal (see `rssGoalSystems`). */
  readonly rssGoal: readonly RssMeasurement[];
  readonly imports: readonly ImportTime[];
  readonly translation: readonly TranslationRow[];
  readonly wire: WireCostReport | undefined;
  /** The durable phase: the stores' runner against its commit floor, on SQLite and PostgreSQL. */
  readonly durable: DurableReport | undefined;
  /** The startup phase: `createCatalogue` on the whole corpus, in fresh processes. */
  readonly corpusCatalogue: CorpusCatalogueCost | undefined;
  /** The startup phase: cold imports of core and each adapter beside its SDK. */
  readonly coldImports: ColdImports | undefined;
  /** The `search` phase: tool-search recall on the held-out and tuning sets, and its speed. */
  readonly search?: { readonly rows: readonly HeldOutRow[]; readonly speed: SearchSpeed } | undefined;
  /** The `context` phase: the long run under a context policy on every backend, and the policy's own cost. */
  readonly context?: ContextFigures | undefined;
  /** The `fallback` phase: a fallback list that never fails against the same run on one model. */
  readonly fallback?: FallbackCost | undefined;
  /** The same through the Anthropic adapter and its SDK: the path an application's run takes. */
  readonly fallbackOverSdk?: FallbackCost | undefined;
  /** The `realistic` phase: a six-property schema at its defaults against the floor, in fresh processes. */
  readonly realistic?: RealisticCell | undefined;
  /** The `server` phase: concurrent approved runs on the run server over HTTP against the durable runner alone. */
  readonly server?: ServerReport | undefined;
}
