import type { Scenario } from './scenario/scenario.js';
import type { StepTiming } from './wire/time-steps.js';

export type Phase =
  | 'timing'
  | 'paths'
  | 'rss'
  | 'imports'
  | 'translation'
  | 'wire'
  | 'startup'
  | 'durable'
  | 'search'
  | 'context'
  | 'fallback'
  | 'realistic'
  | 'server';
export const PHASES: readonly Phase[] = [
  'timing',
  'paths',
  'rss',
  'imports',
  'translation',
  'wire',
  'startup',
  'durable',
  'search',
  'context',
  'fallback',
  'realistic',
  'server',
];

export interface BenchOptions {
  /** The 30-second variant: smaller S, fewer rounds and samples. */
  readonly quick: boolean;
  /** Also time the peers at S=500 with 100 tools (several extra minutes). */
  readonly full: boolean;
  readonly phases: ReadonlySet<Phase>;
  /** `--cells=KxSxT,…`: the `paths` phase times only these cells (every cell when absent). */
  readonly cells: readonly Scenario[] | undefined;
  /** Where to write every figure as JSON, if anywhere. */
  readonly jsonPath: string | undefined;
  /** The cell the per-call goals are judged on (K=8 S=100, or its quick stand-in). */
  readonly goalCell: Scenario;
  /** The cell peak RSS is judged on (K=8 S=500, or its quick stand-in). */
  readonly rssCells: readonly Scenario[];
  readonly steps: readonly number[];
  readonly importSamples: number;
  readonly translationSamples: number;
  /** Also translate a real catalogue from the shared corpus (skipped by --quick). */
  readonly realCatalogue: boolean;
  readonly wireSteps: number;
  /** History lengths (steps) at which one step's request cost is timed. */
  readonly stepHistory: readonly number[];
  readonly stepTiming: StepTiming;
}

export function parseBenchOptions(argv: readonly string[]): BenchOptions {
  const quick = argv.includes('--quick');
  const full = argv.includes('--full');
  const only = argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
  const jsonPath = argv.find((arg) => arg.startsWith('--json='))?.slice('--json='.length);
  const cellList = argv.find((arg) => arg.startsWith('--cells='))?.slice('--cells='.length);
  // A bare `--` is what `pnpm … bench -- --quick` may pass along; it means nothing here.
  const unknown = argv.filter(
    (arg) =>
      !['--', '--quick', '--full'].includes(arg) &&
      !['--only=', '--json=', '--cells='].some((prefix) => arg.startsWith(prefix)),
  );
  if (unknown.length > 0) {
    throw new Error(
      `Unknown option ${unknown.join(' ')}. Use --quick, --full, --only=${PHASES.join(',')}, --json=FILE, --cells=KxSxT,….`,
    );
  }
  const phases = new Set<Phase>();
  for (const name of only === undefined ? PHASES : only.split(',')) {
    if (!(PHASES as readonly string[]).includes(name))
      throw new Error(`Unknown phase "${name}" (${PHASES.join(', ')}).`);
    phases.add(name as Phase);
  }
  const longest = quick ? 50 : 500;
  const middle = quick ? 50 : 100;
  return {
    quick,
    full,
    phases,
    cells: cellList === undefined ? undefined : cellList.split(',').map(parseCell),
    jsonPath,
    goalCell: { calls: 8, steps: middle, tools: 1 },
    rssCells: quick
      ? [{ calls: 8, steps: longest, tools: 1 }]
      : [
          { calls: 8, steps: middle, tools: 100 },
          { calls: 8, steps: longest, tools: 1 },
        ],
    steps: quick ? [10, 50] : [10, 100, 500],
    importSamples: quick ? 1 : 5,
    translationSamples: quick ? 1 : 5,
    realCatalogue: !quick,
    wireSteps: quick ? 30 : 300,
    stepHistory: quick ? [10, 30] : [10, 100, 300],
    stepTiming: { minSamples: quick ? 5 : 9, maxSamples: 200, budgetMs: quick ? 100 : 400 },
  };
}

/** `8x100x1`: K calls per step, S steps, T tools. */
function parseCell(text: string): Scenario {
  const parts = text.split('x').map(Number);
  const [calls, steps, tools] = parts;
  if (parts.length !== 3 || !parts.every((part) => Number.isInteger(part) && part > 0)) {
    throw new Error(`Unknown cell "${text}": write KxSxT, e.g. --cells=8x100x1,1x10x1.`);
  }
  return { calls: calls as number, steps: steps as number, tools: tools as number };
}
