import { isAbsolute, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LintFinding, LintReport } from './lint-finding.js';
import { LINT_RULES } from './lint-rules.js';

const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

/**
 * SARIF 2.1.0 (OASIS), one run, for code-scanning UIs. Catalogue files carry no line numbers we track, so
 * each result has the file as its physical location and the tool (plus schema pointer) as a logical one.
 */
export function formatLintSarif(reports: readonly LintReport[], cwd: string, version: string): string {
  const ruleIndex = new Map(LINT_RULES.map((rule, index) => [rule.id as string, index]));
  const results = reports.flatMap((report) =>
    report.findings.map((finding) => ({
      ruleId: finding.rule,
      ruleIndex: ruleIndex.get(finding.rule) ?? 0,
      level: finding.level,
      message: { text: finding.tool === undefined ? finding.message : `${finding.tool}: ${finding.message}` },
      locations: [
        {
          physicalLocation: { artifactLocation: { uri: artifactUri(report.file, cwd) } },
          ...(finding.tool === undefined ? {} : { logicalLocations: [logicalLocation(finding)] }),
        },
      ],
      ...(propertiesOf(finding) === undefined ? {} : { properties: propertiesOf(finding) }),
    })),
  );
  const sarif = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'toolcircuit-lint',
            version,
            rules: LINT_RULES.map((rule) => ({
              id: rule.id,
              name: rule.id,
              shortDescription: { text: rule.summary },
              fullDescription: { text: rule.help },
              help: { text: rule.help },
              defaultConfiguration: { level: rule.level },
            })),
          },
        },
        columnKind: 'unicodeCodePoints',
        results,
      },
    ],
  };
  return `${JSON.stringify(sarif, null, 2)}\n`;
}

/** Relative to the working directory when inside it (what code-scanning UIs expect), else a file: URI. */
function artifactUri(file: string, cwd: string): string {
  const inside = relative(cwd, file);
  if (!isAbsolute(file) || (inside !== '' && !inside.startsWith('..') && !isAbsolute(inside))) {
    return (isAbsolute(file) ? inside : file).split(sep).join('/');
  }
  return pathToFileURL(file).href;
}

function logicalLocation(finding: LintFinding): { name: string; fullyQualifiedName: string; kind: string } {
  const path = finding.path === undefined || finding.path === '' ? '' : `#${finding.path}`;
  return { name: finding.tool ?? '', fullyQualifiedName: `${finding.tool ?? ''}${path}`, kind: 'function' };
}

function propertiesOf(finding: LintFinding): Record<string, unknown> | undefined {
  const properties: Record<string, unknown> = {};
  if (finding.provider !== undefined) properties['provider'] = finding.provider;
  if (finding.otherTool !== undefined) properties['otherTool'] = finding.otherTool;
  if (finding.score !== undefined) properties['score'] = finding.score;
  if (finding.sharedTerms !== undefined) properties['sharedTerms'] = finding.sharedTerms;
  return Object.keys(properties).length === 0 ? undefined : properties;
}
