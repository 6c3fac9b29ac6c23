import { createToolSearchIndex, type ToolSearchIndex } from '@toolcircuit/core';
import { createNameMatchIndex } from './name-match-search.js';
import { type BfclQuestion, bfclQuestions, corpusDeclarations } from './search-corpus.js';

export const RECALL_KS = [1, 5, 10] as const;

export interface RecallRow {
  readonly method: 'tool search (BM25F)' | 'name match';
  /** `single-turn`, `multi-turn` (one entry per turn) or `all`. */
  readonly questions: string;
  /** (question, ground-truth tool) pairs counted. */
  readonly pairs: number;
  /** Share of pairs whose tool is in the first k results, per k of {@link RECALL_KS}. */
  readonly recall: Readonly<Record<(typeof RECALL_KS)[number], number>>;
}

export interface RecallReport {
  readonly tools: number;
  readonly singleTurnQuestions: number;
  readonly multiTurnTurns: number;
  readonly rows: readonly RecallRow[];
  readonly indexMs: number;
  readonly queryMs: number;
}

/**
 * Recall of the ground-truth tool of every BFCL question, searching the whole corpus (every tool of
 * fixtures/catalogues as one catalogue) with the question's user text as the query. A question with several
 * ground-truth tools counts each of them.
 */
export function measureSearchRecall(): RecallReport {
  const declarations = corpusDeclarations();
  const questions = bfclQuestions();
  const started = performance.now();
  const search = createToolSearchIndex(declarations);
  const indexMs = performance.now() - started;
  const queried = performance.now();
  const searchRows = rowsOf('tool search (BM25F)', search, questions);
  const queryMs = (performance.now() - queried) / questions.length;
  const nameRows = rowsOf('name match', createNameMatchIndex(declarations), questions);
  return {
    tools: declarations.length,
    singleTurnQuestions: questions.filter((question) => !isMultiTurn(question)).length,
    multiTurnTurns: questions.filter(isMultiTurn).length,
    rows: [...searchRows, ...nameRows],
    indexMs,
    queryMs,
  };
}

function rowsOf(method: RecallRow['method'], index: ToolSearchIndex, questions: readonly BfclQuestion[]): RecallRow[] {
  const groups = new Map<string, { pairs: number; found: number[] }>();
  const count = (group: string, rank: number) => {
    const entry = groups.get(group) ?? { pairs: 0, found: RECALL_KS.map(() => 0) };
    entry.pairs += 1;
    RECALL_KS.forEach((k, position) => {
      if (rank >= 0 && rank < k) entry.found[position] = (entry.found[position] ?? 0) + 1;
    });
    groups.set(group, entry);
  };
  const deepest = Math.max(...RECALL_KS);
  for (const question of questions) {
    const ranked = index.search(question.question, deepest).map((hit) => hit.name);
    for (const name of new Set(question.groundTruth.map((call) => call.name))) {
      const rank = ranked.indexOf(name);
      count(isMultiTurn(question) ? 'multi-turn' : 'single-turn', rank);
      count('all', rank);
    }
  }
  return ['single-turn', 'multi-turn', 'all'].map((group) => {
    const entry = groups.get(group) ?? { pairs: 0, found: [] };
    const recall = Object.fromEntries(
      RECALL_KS.map((k, position) => [k, entry.pairs === 0 ? 0 : (entry.found[position] ?? 0) / entry.pairs]),
    ) as RecallRow['recall'];
    return { method, questions: group, pairs: entry.pairs, recall };
  });
}

function isMultiTurn(question: BfclQuestion): boolean {
  return question.category.startsWith('multi_turn');
}
