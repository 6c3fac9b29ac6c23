import type { LintCounts, LintFinding, LintReport } from './lint-finding.js';

/** The terminal report: one line per finding, a count line per file, and a total when there are several files. */
export function formatLintHuman(reports: readonly LintReport[], totals: LintCounts): string {
  const lines: string[] = [];
  for (const report of reports) {
    lines.push(`${report.file}: ${report.tools} tool(s)`);
    for (const { finding, tools } of foldNotes(report.findings)) {
      const text =
        tools.length <= 1
          ? `${subject(finding)}${finding.message}`
          : `${foldedSubject(finding, tools)}${finding.message}`;
      lines.push(`  ${finding.level.padEnd(7)}  ${finding.rule.padEnd(24)}  ${text}`);
    }
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

/** How many tool names a folded line shows before "and N more". */
const FOLDED_NAMES = 3;

/**
 * Notes that say the same thing (rule, provider, path and message) about several tools become one line
 * with a count, at the place of the first: `no-out-of-scope` on a catalogue of 50 tools is one line, not 50.
 * Errors and warnings stay one line each, since each is something to fix where it is.
 */
function foldNotes(findings: readonly LintFinding[]): { finding: LintFinding; tools: string[] }[] {
  const out: { finding: LintFinding; tools: string[] }[] = [];
  const byKey = new Map<string, { finding: LintFinding; tools: string[] }>();
  for (const finding of findings) {
    if (finding.level !== 'note' || finding.tool === undefined || finding.otherTool !== undefined) {
      out.push({ finding, tools: finding.tool === undefined ? [] : [finding.tool] });
      continue;
    }
    const key = JSON.stringify([finding.rule, finding.provider, finding.path, finding.message]);
    const group = byKey.get(key);
    if (group === undefined) {
      const created = { finding, tools: [finding.tool] };
      byKey.set(key, created);
      out.push(created);
    } else group.tools.push(finding.tool);
  }
  return out;
}

function foldedSubject(finding: LintFinding, tools: readonly string[]): string {
  const shown = tools.slice(0, FOLDED_NAMES).join(', ');
  const more = tools.length > FOLDED_NAMES ? ` and ${tools.length - FOLDED_NAMES} more` : '';
  const path = finding.path === undefined || finding.path === '' ? '' : ` ${finding.path}`;
  const provider = finding.provider === undefined ? '' : ` [${finding.provider}]`;
  return `${tools.length} tools (${shown}${more})${path}${provider}: `;
}
