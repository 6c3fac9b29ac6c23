import { resolve } from 'node:path';
import { loadToolList } from '../catalogue/load-tool-list.js';
import type { Command } from '../command.js';
import { UsageError } from '../errors/usage-error.js';
import { ExitCode } from '../exit-codes.js';
import { DEFAULT_OVERLAP_THRESHOLD } from '../lint/description-overlap.js';
import { formatLintHuman } from '../lint/format-lint-human.js';
import { formatLintJson } from '../lint/format-lint-json.js';
import { formatLintSarif } from '../lint/format-lint-sarif.js';
import { countFindings, lintCatalogue } from '../lint/lint-catalogue.js';
import type { LintReport } from '../lint/lint-finding.js';
import { CLI_PROVIDERS, type CliProvider, DEFAULT_LINT_PROVIDERS } from '../lint/lint-providers.js';
import { isAtLeast, LINT_LEVELS, LINT_RULES } from '../lint/lint-rules.js';
import { parseRuleSettings } from '../lint/rule-levels.js';
import { loadCliConfig } from '../run/load-cli-config.js';
import { cliVersion } from '../version.js';

const FAIL_ON = [...LINT_LEVELS, 'none'] as const;

export const lintCommand: Command = {
  name: 'lint',
  summary: 'Check catalogues for tools a model will confuse and schemas a provider will reject or rewrite.',
  usage:
    'toolcircuit lint <file...> [--provider <name>]... [--format human|json|sarif] [--fail-on <level>] [--rule <name>=off|note|warn|error]... [--quiet]',
  description: [
    'Each file is a JS/TS catalogue module (exporting `catalogue` or a default built with createCatalogue),',
    'or JSON: MCP tools/list output, OpenAI or Anthropic tool arrays, Gemini functionDeclarations, BFCL.',
    '',
    'Rules:',
    ...LINT_RULES.map((rule) => `  ${rule.id.padEnd(26)}${rule.level.padEnd(9)}${rule.summary}`),
    '',
    `Overlap is the TF-IDF cosine of stemmed content words, IDF over the file; a pair is reported at`,
    `--overlap-threshold (default ${DEFAULT_OVERLAP_THRESHOLD}) with at least 2 shared terms.`,
    `Provider checks use @toolcircuit/schema, the translation the adapters run (default providers:`,
    `${DEFAULT_LINT_PROVIDERS.join(', ')}).`,
    'Severities: --rule name=off|note|warn|error, or "lint": { "rules": { "name": "off" } } in',
    'toolcircuit.config.json (flags win). core-refuses runs createCatalogue itself: lint fails on every',
    'tool createCatalogue would refuse, with its message.',
  ].join('\n'),
  options: {
    provider: {
      type: 'string',
      multiple: true,
      valueName: 'name',
      description: `provider to check for: ${CLI_PROVIDERS.join(', ')} (default: ${DEFAULT_LINT_PROVIDERS.join(', ')})`,
    },
    format: { type: 'string', valueName: 'human|json|sarif', description: 'output format (default human)' },
    'fail-on': {
      type: 'string',
      valueName: 'level',
      description: 'exit 1 when a finding is at or above: error (default), warning, note, none',
    },
    rule: {
      type: 'string',
      multiple: true,
      valueName: 'name=severity',
      description: 'set a rule to off, note, warn or error (repeatable; overrides the config file)',
    },
    quiet: { type: 'boolean', description: 'report errors only (and fail on errors only)' },
    config: { type: 'string', valueName: 'file', description: 'config file (default ./toolcircuit.config.json)' },
    'overlap-threshold': {
      type: 'string',
      valueName: 'score',
      description: `report description pairs scoring at least this, 0..1 (default ${DEFAULT_OVERLAP_THRESHOLD})`,
    },
  },
  examples: [
    'toolcircuit lint tools.json',
    'toolcircuit lint dist/catalogue.js --provider openai-strict --fail-on warning',
    'toolcircuit lint mcp-tools.json --format sarif > lint.sarif',
  ],
  exitCodes: [
    [ExitCode.ok, 'no finding at or above --fail-on'],
    [ExitCode.failed, 'findings at or above --fail-on'],
    [ExitCode.usage, 'bad flag, missing file, invalid JSON, a file that is not a catalogue'],
  ],
  async run(args, io) {
    if (args.positionals.length === 0) {
      throw new UsageError(
        'no catalogue file given.',
        'Usage: toolcircuit lint <file...>  (JSON tool list or JS/TS catalogue module)',
      );
    }
    const format = args.choice('format', ['human', 'json', 'sarif'], 'human');
    const failOn = args.choice('fail-on', FAIL_ON, 'error');
    const providers = providersOf(args.list('provider'));
    const overlapThreshold = thresholdOf(args.string('overlap-threshold'));
    const { config } = await loadCliConfig(io.cwd, args.string('config'));
    const rules = parseRuleSettings(config?.lint?.rules, args.list('rule'));
    const quiet = args.flag('quiet');

    const reports: LintReport[] = [];
    for (const file of args.positionals) {
      const path = resolve(io.cwd, file);
      const tools = await loadToolList(path);
      const report = lintCatalogue(file, tools, { providers, overlapThreshold, rules });
      const findings = quiet ? report.findings.filter((finding) => finding.level === 'error') : report.findings;
      reports.push(quiet ? { ...report, findings, counts: countFindings(findings) } : report);
    }
    const totals = countFindings(reports.flatMap((report) => report.findings));
    if (format === 'json') io.stdout.write(formatLintJson(reports, totals, failOn));
    else if (format === 'sarif') io.stdout.write(formatLintSarif(reports, io.cwd, cliVersion()));
    else io.stdout.write(formatLintHuman(reports, totals));

    if (failOn === 'none') return ExitCode.ok;
    const failing = reports.some((report) => report.findings.some((finding) => isAtLeast(finding.level, failOn)));
    return failing ? ExitCode.failed : ExitCode.ok;
  },
};

function providersOf(names: readonly string[]): CliProvider[] {
  if (names.length === 0) return [...DEFAULT_LINT_PROVIDERS];
  const unknown = names.filter((name) => !(CLI_PROVIDERS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new UsageError(
      `unknown provider ${unknown.map((name) => `"${name}"`).join(', ')}.`,
      `Use one of: ${CLI_PROVIDERS.join(', ')}.`,
    );
  }
  return [...new Set(names as CliProvider[])];
}

function thresholdOf(text: string | undefined): number {
  if (text === undefined) return DEFAULT_OVERLAP_THRESHOLD;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0 || value > 1) {
    throw new UsageError(`--overlap-threshold must be a number above 0 and at most 1, got "${text}".`);
  }
  return value;
}
