import { DEFERRED_CATALOGUE_SIZE } from './deferred-catalogue.js';
import type { RequestBytesRow } from './measure-deferred-requests.js';
import { RECALL_KS, type RecallReport } from './measure-search-recall.js';

const percent = (value: number) => `${(value * 100).toFixed(1)} %`;
const kb = (bytes: number | undefined) => (bytes === undefined ? '–' : `${(bytes / 1024).toFixed(1)} KB`);

/** The recall table: tool search and the name-match baseline, per question kind. */
export function formatRecall(report: RecallReport): string {
  const lines = [
    `| method | questions | pairs | ${RECALL_KS.map((k) => `recall@${k}`).join(' | ')} |`,
    `|---|---|---:|${RECALL_KS.map(() => '---:').join('|')}|`,
    ...report.rows.map(
      (row) =>
        `| ${row.method} | ${row.questions} | ${row.pairs} | ${RECALL_KS.map((k) => percent(row.recall[k])).join(' | ')} |`,
    ),
  ];
  return [
    `${report.tools} tools in one catalogue; ${report.singleTurnQuestions} single-turn questions and ${report.multiTurnTurns} multi-turn turns; ` +
      `index built in ${report.indexMs.toFixed(0)} ms, ${report.queryMs.toFixed(2)} ms per query.`,
    '',
    ...lines,
  ].join('\n');
}

/** Request body bytes per step: deferred (search, call, answer) vs all tools shown (call, answer). */
export function formatRequestBytes(rows: readonly RequestBytesRow[]): string {
  const lines = [
    `| adapter | all ${DEFERRED_CATALOGUE_SIZE} tools: step 1 · step 2 | deferred: step 1 (search) · step 2 (call) · step 3 (answer) | tools declared (deferred) | whole task, deferred / all |`,
    '|---|---|---|---|---:|',
    ...rows.map((row) => {
      const all = row.allTools.reduce((sum, bytes) => sum + bytes, 0);
      const deferred = row.deferred.reduce((sum, bytes) => sum + bytes, 0);
      return (
        `| ${row.backend} | ${row.allTools.map(kb).join(' · ')} | ${row.deferred.map(kb).join(' · ')} | ` +
        `${row.deferredTools.join(' · ')} (all: ${row.allToolsTools[0] ?? 0}) | ${percent(deferred / all)} |`
      );
    }),
  ];
  return lines.join('\n');
}
