import { UsageError } from '../errors/usage-error.js';
import type { LintFinding } from './lint-finding.js';
import { LINT_RULES, type LintLevel, type LintRuleId } from './lint-rules.js';

/** A rule's severity as set by `--rule` or the config file's `lint.rules`: a level, or `off`. */
export type RuleSetting = LintLevel | 'off';

const SETTINGS: Readonly<Record<string, RuleSetting>> = {
  off: 'off',
  note: 'note',
  warn: 'warning',
  warning: 'warning',
  error: 'error',
};

/** Reads `name=off|note|warn|error` pairs (config entries first, so flags win); unknown names are usage errors. */
export function parseRuleSettings(
  fromConfig: Readonly<Record<string, string>> | undefined,
  flags: readonly string[],
): Map<LintRuleId, RuleSetting> {
  const settings = new Map<LintRuleId, RuleSetting>();
  const known = new Set<string>(LINT_RULES.map((rule) => rule.id));
  const set = (name: string, value: string, origin: string): void => {
    if (!known.has(name)) {
      throw new UsageError(`${origin}: unknown lint rule "${name}".`, `Rules: ${[...known].join(', ')}.`);
    }
    const setting = SETTINGS[value];
    if (setting === undefined) {
      throw new UsageError(`${origin}: "${value}" is not a severity for ${name}.`, 'Use off, note, warn or error.');
    }
    settings.set(name as LintRuleId, setting);
  };
  for (const [name, value] of Object.entries(fromConfig ?? {})) set(name, value, 'lint.rules in the config file');
  for (const flag of flags) {
    const [name, value] = flag.split('=');
    if (name === undefined || value === undefined || flag.split('=').length !== 2) {
      throw new UsageError(`--rule "${flag}" is not name=severity.`, 'For example: --rule open-object=off');
    }
    set(name.trim(), value.trim(), `--rule ${flag}`);
  }
  return settings;
}

/** Drops findings of rules set `off` and gives the others their configured level. */
export function applyRuleSettings(
  findings: readonly LintFinding[],
  settings: ReadonlyMap<LintRuleId, RuleSetting>,
): LintFinding[] {
  const result: LintFinding[] = [];
  for (const finding of findings) {
    const setting = settings.get(finding.rule);
    if (setting === 'off') continue;
    result.push(setting === undefined ? finding : { ...finding, level: setting });
  }
  return result;
}
