import type { LintCounts, LintFinding, LintReport } from './lint-finding.js';

/** The terminal report: one line per finding, a count line per file, and a total when there are several files. */
export function formatLintHuman(reports: readonly LintReport[], totals: LintCounts): string {
  const lines: string[] = [];
  for (const report of reports) {
    lines.push(`${report.file}: ${report.tools} tool(s)`);
    for (const finding of report.findings)
      lines.push(`  ${finding.level.padEnd(7)}  ${finding.rule.padEnd(24)}  ${subject(finding)}${finding.message}`);
    lines.push(`  ${countLine(report.counts)}`);
    const rules = ruleLine(report.counts);
    lines.push(...(rules === '' ? [] : [`  ${rules}`]), '');
  }
  if (reports.length > 1) {
    lines.push(`total: ${countLine(totals)} in ${reports.length} files`);
    const rules = ruleLine(totals);
    if (rules !== '') lines.push(`total ${rules}`);
  }
  return `${lines.join('\n')}\n`;
}

export function countLine(counts: LintCounts): string {
  return `${counts.error} error(s), ${counts.warning} warning(s), ${counts.note} note(s)`;
}

/** `by rule: open-object 1, undocumented-property 45` (rules that found something, in rule order). */
export function ruleLine(counts: LintCounts): string {
  const found = Object.entries(counts.byRule).filter(([, count]) => count > 0);
  return found.length === 0 ? '' : `by rule: ${found.map(([rule, count]) => `${rule} ${count}`).join(', ')}`;
}

function subject(finding: LintFinding): string {
  const parts: string[] = [];
  if (finding.tool !== undefined && finding.otherTool === undefined) {
    parts.push(finding.path === undefined || finding.path === '' ? finding.tool : `${finding.tool} ${finding.path}`);
  }
  if (finding.provider !== undefined) parts.push(`[${finding.provider}]`);
  return parts.length === 0 ? '' : `${parts.join(' ')}: `;
}
