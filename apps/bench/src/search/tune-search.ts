import { createToolSearchIndex, DEFAULT_TOOL_SEARCH_TUNING, type ToolSearchTuning } from '@toolcircuit/core';
import { recallOf } from './measure-held-out-recall.js';
import { searchSets } from './search-sets.js';
import { type SizedSet, sizedSet } from './sized-catalogue.js';

/** One setting tried, and the mean recall@5 (and @1) it gave over the tuning sets. */
export interface TuningTrial {
  readonly change: string;
  readonly recall5: number;
  readonly recall1: number;
}

type Knob = {
  readonly name: string;
  readonly values: readonly number[];
  set(tuning: ToolSearchTuning, value: number): ToolSearchTuning;
};

const field =
  (name: keyof ToolSearchTuning['fields']): Knob['set'] =>
  (tuning, value) => ({
    ...tuning,
    fields: { ...tuning.fields, [name]: value },
  });

/** What the search may be tuned by, and the values tried for each. */
const KNOBS: readonly Knob[] = [
  { name: 'k1', values: [0.8, 1.2, 1.6, 2], set: (tuning, k1) => ({ ...tuning, k1 }) },
  { name: 'b', values: [0.5, 0.75, 0.9], set: (tuning, b) => ({ ...tuning, b }) },
  {
    name: 'coordination',
    values: [0, 0.25, 0.5, 1, 1.5],
    set: (tuning, coordination) => ({ ...tuning, coordination }),
  },
  {
    name: 'singleTermDamping',
    values: [1, 0.75, 0.5, 0.25],
    set: (tuning, singleTermDamping) => ({ ...tuning, singleTermDamping }),
  },
  {
    name: 'compoundWeight',
    values: [0, 0.25, 0.5, 0.75],
    set: (tuning, compoundWeight) => ({ ...tuning, compoundWeight }),
  },
  { name: 'affixWeight', values: [0, 0.25, 0.5, 0.75], set: (tuning, affixWeight) => ({ ...tuning, affixWeight }) },
  {
    name: 'namespaceBoost',
    values: [1, 1.25, 1.5, 2, 3],
    set: (tuning, namespaceBoost) => ({ ...tuning, namespaceBoost }),
  },
  { name: 'fields.name', values: [1, 1.5, 2, 3], set: field('name') },
  { name: 'fields.namespace', values: [0, 0.5, 1, 2], set: field('namespace') },
  { name: 'fields.parameterNames', values: [0.25, 0.5, 1], set: field('parameterNames') },
  { name: 'fields.parameterDescriptions', values: [0.25, 0.5, 1], set: field('parameterDescriptions') },
  { name: 'fields.enumValues', values: [0, 0.25, 0.5, 1], set: field('enumValues') },
];

/**
 * Chooses the search's numbers on the tuning sets only (BFCL, StableToolBench's G1 category, G1 tool and G2
 * category files; fixed in fixtures/search/SOURCES.md before any tuning): coordinate ascent from the
 * defaults, one knob at a time, over the mean recall@5 of the tuning sets at 600 tools (recall@1 breaks
 * ties). The test sets are never loaded here.
 */
export function tuneSearch(
  rounds = 2,
  log: (line: string) => void = () => {},
): { tuning: ToolSearchTuning; trials: TuningTrial[] } {
  const sized: SizedSet[] = searchSets()
    .filter((set) => set.split === 'tuning')
    .map((set) => sizedSet(set, 600));
  const score = (tuning: ToolSearchTuning) => {
    let recall5 = 0;
    let recall1 = 0;
    for (const entry of sized) {
      const index = createToolSearchIndex(entry.tools, tuning);
      const row = recallOf(entry, (query, limit, filter) => index.search(query, limit, filter));
      recall5 += row.recall[5];
      recall1 += row.recall[1];
    }
    return { recall5: recall5 / sized.length, recall1: recall1 / sized.length };
  };
  let best = DEFAULT_TOOL_SEARCH_TUNING;
  let bestScore = score(best);
  const trials: TuningTrial[] = [{ change: 'defaults', ...bestScore }];
  log(`defaults: @5 ${(bestScore.recall5 * 100).toFixed(2)} @1 ${(bestScore.recall1 * 100).toFixed(2)}`);
  for (let round = 0; round < rounds; round += 1) {
    let changed = false;
    for (const knob of KNOBS) {
      for (const value of knob.values) {
        const candidate = knob.set(best, value);
        const result = score(candidate);
        trials.push({ change: `${knob.name}=${value}`, ...result });
        const better =
          result.recall5 > bestScore.recall5 + 1e-9 ||
          (Math.abs(result.recall5 - bestScore.recall5) <= 1e-9 && result.recall1 > bestScore.recall1 + 1e-9);
        if (better) {
          best = candidate;
          bestScore = result;
          changed = true;
          log(`${knob.name}=${value}: @5 ${(result.recall5 * 100).toFixed(2)} @1 ${(result.recall1 * 100).toFixed(2)}`);
        }
      }
    }
    if (!changed) break;
  }
  return { tuning: best, trials };
}
