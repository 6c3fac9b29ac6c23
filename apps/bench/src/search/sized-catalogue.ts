import {
  type Catalogue,
  createCatalogue,
  everySession,
  type SearchableTool,
  type ToolDefinition,
} from '@toolcircuit/core';
import { normalizeToolSchema } from '@toolcircuit/schema';
import { CORPUS_FILES, corpusTools, type SearchSet, type SetQuestion, type SetTool } from './search-sets.js';

export const CATALOGUE_SIZES = [100, 600, 2_500] as const;

/** A set's questions over a catalogue of one size, as the product loads it. */
export interface SizedSet {
  readonly set: SearchSet;
  readonly size: number;
  /** The questions whose ground-truth tools all fit in the catalogue (all of them, but at small sizes). */
  readonly questions: readonly SetQuestion[];
  /** What the search indexes: the catalogue's deferred tools, with their namespaces. */
  readonly tools: readonly SearchableTool[];
  readonly catalogue: Catalogue;
  /** Ground-truth tools `createCatalogue` refused (they count as not found). */
  readonly refusedGroundTruth: number;
}

let distractorPool: SetTool[] | undefined;
const loadability = new WeakMap<SetTool, boolean>();

function definitionOf(tool: SetTool): ToolDefinition<never> {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    right: everySession,
    irreversible: false,
    run: () => ({ ok: true }),
    ...(tool.namespace === undefined ? {} : { search: { namespace: tool.namespace } }),
  };
}

/** Whether `createCatalogue` (with the normalisation) loads the tool, found once per tool. */
function loadable(tool: SetTool): boolean {
  let verdict = loadability.get(tool);
  if (verdict === undefined) {
    const catalogue = createCatalogue([definitionOf(tool)], { mode: 'lenient', normalizeSchema: normalizeToolSchema });
    verdict = catalogue.refused.length === 0;
    loadability.set(tool, verdict);
  }
  return verdict;
}

/**
 * A catalogue of `size` tools for a set: the ground-truth tools of its questions, taken in the set's order
 * while they fill at most half of it, then the rest of the catalogue the source ships (the nearest
 * neighbours: same vendors, same style), then other sources' tools in a fixed order. Names are unique (a
 * later tool of a name already taken is skipped). Loaded by `createCatalogue` with every tool deferred and
 * the schema normalisation `lint` and `convert` apply, so it holds what the product would serve.
 */
export function sizedSet(set: SearchSet, size: number): SizedSet {
  const byName = new Map<string, SetTool>();
  for (const tool of set.tools) if (!byName.has(tool.name)) byName.set(tool.name, tool);
  const chosen = new Map<string, SetTool>();
  const questions: SetQuestion[] = [];
  for (const question of set.questions) {
    const missing = question.groundTruth.filter((name) => !chosen.has(name));
    if (missing.some((name) => !byName.has(name))) continue;
    if (chosen.size + missing.length > size / 2) continue;
    for (const name of missing) chosen.set(name, byName.get(name) as SetTool);
    questions.push(question);
  }
  distractorPool ??= CORPUS_FILES.flatMap((file) => corpusTools(file));
  // Ground-truth tools stay even when the product refuses them (they count as misses); distractors must load.
  let loaded = [...chosen.values()].filter(loadable).length;
  for (const tool of [...set.tools, ...distractorPool]) {
    if (loaded >= size) break;
    if (chosen.has(tool.name) || !loadable(tool)) continue;
    chosen.set(tool.name, tool);
    loaded += 1;
  }
  const definitions = [...chosen.values()].map(definitionOf);
  const catalogue = createCatalogue(definitions, {
    mode: 'lenient',
    defer: true,
    normalizeSchema: normalizeToolSchema,
  });
  const refused = new Set(catalogue.refused.map((tool) => tool.name));
  return {
    set,
    size,
    questions,
    tools: catalogue.toolSearch?.deferred ?? [],
    catalogue,
    refusedGroundTruth: questions.reduce(
      (sum, question) => sum + question.groundTruth.filter((name) => refused.has(name)).length,
      0,
    ),
  };
}
