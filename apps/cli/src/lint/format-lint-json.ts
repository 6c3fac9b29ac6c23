import type { LintCounts, LintReport } from './lint-finding.js';
import type { LintLevel } from './lint-rules.js';

/** `--format json`: every finding plus per-file and total counts (per level and per rule), for scripts and tests. */
export function formatLintJson(reports: readonly LintReport[], totals: LintCounts, failOn: LintLevel | 'none'): string {
  return `${JSON.stringify({ format: 'toolcircuit-lint/1', failOn, files: reports, totals: { files: reports.length, ...totals } }, null, 2)}\n`;
}
