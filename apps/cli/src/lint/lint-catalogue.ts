import type { JsonObject } from '@toolcircuit/core';
import { checkCoreRefusals } from './check-core-refusals.js';
import { checkImpossibleRequired } from './check-impossible-required.js';
import { namesOutOfScope } from './check-out-of-scope.js';
import { checkProviderCompatibility } from './check-provider-compatibility.js';
import { checkSchemaHygiene } from './check-schema-hygiene.js';
import { DEFAULT_OVERLAP_THRESHOLD, findDescriptionOverlaps } from './description-overlap.js';
import type { LintCounts, LintFinding, LintReport } from './lint-finding.js';
import type { CliProvider } from './lint-providers.js';
import { LINT_RULES, type LintRuleId } from './lint-rules.js';
import { applyRuleSettings, type RuleSetting } from './rule-levels.js';
import { summarizeOpenObjects } from './summarize-open-objects.js';

export interface LintTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
}

export interface LintOptions {
  readonly providers: readonly CliProvider[];
  readonly overlapThreshold?: number;
  /** Severities set by `--rule` and the config file (`off` drops the rule). */
  readonly rules?: ReadonlyMap<LintRuleId, RuleSetting>;
}

/** Every check on one catalogue; findings are ordered by rule (as LINT_RULES lists them), then by tool. */
export function lintCatalogue(file: string, tools: readonly LintTool[], options: LintOptions): LintReport {
  const findings: LintFinding[] = [];
  const seen = new Map<string, number>();
  for (const tool of tools) seen.set(tool.name, (seen.get(tool.name) ?? 0) + 1);
  for (const [name, count] of seen) {
    if (count > 1) {
      findings.push({
        rule: 'duplicate-name',
        level: 'error',
        tool: name,
        message: `${count} tools are named "${name}".`,
      });
    }
  }
  const described = tools.filter((tool) => tool.description.trim() !== '');
  for (const tool of tools) {
    // A blank description is core's refusal (missing-description, from checkCoreRefusals below).
    if (tool.description.trim() !== '' && !namesOutOfScope(tool.description)) {
      findings.push({
        rule: 'no-out-of-scope',
        level: 'note',
        tool: tool.name,
        message: 'the description never says when not to use the tool (e.g. "Do not use for …", "Only …").',
      });
    }
    findings.push(...checkSchemaHygiene(tool.name, tool.inputSchema));
    findings.push(...checkImpossibleRequired(tool.name, tool.inputSchema));
  }
  for (const overlap of findDescriptionOverlaps(described, options.overlapThreshold ?? DEFAULT_OVERLAP_THRESHOLD)) {
    findings.push({
      rule: 'overlapping-descriptions',
      level: 'warning',
      tool: overlap.first,
      otherTool: overlap.second,
      score: overlap.score,
      sharedTerms: overlap.sharedTerms,
      message: `descriptions of "${overlap.first}" and "${overlap.second}" overlap (score ${overlap.score.toFixed(2)}; shared: ${overlap.sharedTerms.join(', ')}).`,
    });
  }
  findings.push(...checkCoreRefusals(tools));
  findings.push(...summarizeOpenObjects(tools));
  findings.push(...checkProviderCompatibility(tools, options.providers));
  const order = new Map(LINT_RULES.map((rule, index) => [rule.id as LintRuleId, index]));
  // A stable sort: within a rule, the order checks produced (catalogue order) is kept.
  findings.sort((a, b) => (order.get(a.rule) ?? 0) - (order.get(b.rule) ?? 0));
  const kept = applyRuleSettings(findings, options.rules ?? new Map());
  return { file, tools: tools.length, findings: kept, counts: countFindings(kept) };
}

export function countFindings(findings: readonly LintFinding[]): LintCounts {
  const byRule = Object.fromEntries(LINT_RULES.map((rule) => [rule.id, 0])) as Record<LintRuleId, number>;
  const counts = { error: 0, warning: 0, note: 0 };
  for (const finding of findings) {
    byRule[finding.rule] += 1;
    counts[finding.level] += 1;
  }
  return { ...counts, byRule };
}
