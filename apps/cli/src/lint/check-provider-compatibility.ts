import type { JsonObject } from '@toolcircuit/core';
import {
  createToolNameMap,
  type SchemaChange,
  type SchemaChangeKind,
  SchemaTranslationError,
  translateSchema,
} from '@toolcircuit/schema';
import type { LintFinding } from './lint-finding.js';
import { type CliProvider, PROVIDER_TARGETS } from './lint-providers.js';

/** Changes after which the model no longer sees a constraint at all (the executor still enforces it). */
const LOSSY: ReadonlySet<SchemaChangeKind> = new Set(['dropped', 'json-encoded', 'recursion-bounded']);

/**
 * Dropped keywords that told the model nothing it still needs: dialect markers and annotations, `$defs`
 * (their uses are inlined), BFCL's non-standard `optional` (`required` says it), and `additionalProperties`
 * (the model still sees exactly the declared properties; the executor rejects extra keys).
 */
const HARMLESS_DROPS: ReadonlySet<string> = new Set([
  '$schema',
  '$id',
  '$comment',
  '$defs',
  'definitions',
  'title',
  'examples',
  'optional',
  'additionalProperties',
]);

/**
 * Changes after which some valid inputs cannot be sent. Open keys (strict mode closing an object that declares
 * them, Gemini calling such a tool without parameters without any) are left to the `open-object` summary,
 * which says that cost once per file.
 */
function narrows(change: SchemaChange): boolean {
  if (change.kind === 'ambiguous-restore') return true;
  return change.narrows !== undefined && change.kind !== 'closed-object' && change.kind !== 'omitted-parameters';
}

function isLossy(change: SchemaChange): boolean {
  if (!LOSSY.has(change.kind)) return false;
  return !(change.kind === 'dropped' && change.keyword !== undefined && HARMLESS_DROPS.has(change.keyword));
}

const SHOWN_CHANGES = 3;

/**
 * What each provider will reject or rewrite, from @toolcircuit/schema (the translation the adapters use):
 * `provider-renames` from the tool-name map, `provider-rejects` from translation refusals,
 * `provider-drops` / `provider-rewrites` from the changes a translation reports.
 */
export function checkProviderCompatibility(
  tools: readonly { readonly name: string; readonly inputSchema: JsonObject }[],
  providers: readonly CliProvider[],
): LintFinding[] {
  const findings: LintFinding[] = [];
  // Duplicates are reported by their own rule; the name map needs each name once.
  const names = [...new Set(tools.map((tool) => tool.name).filter((name) => name !== ''))];
  for (const provider of providers) {
    const target = PROVIDER_TARGETS[provider];
    const map = createToolNameMap(names, target);
    for (const [original, mapped] of map.names) {
      if (original === mapped) continue;
      const change = map.changes.find((candidate) => candidate.detail.startsWith(`"${original}" →`));
      findings.push({
        rule: 'provider-renames',
        level: 'warning',
        tool: original,
        provider,
        message: `${provider} rejects the name; the adapter sends ${change?.detail ?? `"${original}" → "${mapped}"`}.`,
      });
    }
    for (const tool of tools) findings.push(...translationFindings(tool, provider));
  }
  return findings;
}

/** Changes that say a tool went in the provider's looser dialect (per-tool `strict: false`, parametersJsonSchema). */
const FALLBACK_KINDS: ReadonlySet<SchemaChangeKind> = new Set(['strict-off', 'json-schema-parameters']);

/**
 * `provider-fallback`, one per tool: objects that only omit additionalProperties no longer cost strict mode,
 * so the tools that fall back are few, and each is worth its own line. The change's detail says why (what the
 * provider's own dialect would lose, at which paths) and what the fallback costs.
 */
function fallbackFinding(tool: string, change: SchemaChange, provider: CliProvider): LintFinding {
  const strict = change.kind === 'strict-off';
  return {
    rule: 'provider-fallback',
    level: strict ? 'warning' : 'note',
    tool,
    provider,
    path: change.path,
    message: `${strict ? 'Sent with strict: false' : 'Declared with parametersJsonSchema'} on ${provider}: ${change.detail}.`,
  };
}

function translationFindings(
  tool: { readonly name: string; readonly inputSchema: JsonObject },
  provider: CliProvider,
): LintFinding[] {
  const target = PROVIDER_TARGETS[provider];
  let changes: readonly SchemaChange[];
  try {
    changes = translateSchema(tool.inputSchema, target, { toolName: tool.name }).changes;
  } catch (error) {
    const known = error instanceof SchemaTranslationError;
    return [
      {
        rule: 'provider-rejects',
        level: 'error',
        tool: tool.name,
        provider,
        path: known ? error.path : '',
        message: known
          ? `${provider} cannot accept this schema at ${error.path === '' ? '(root)' : error.path}: ${error.reason}: ${error.detail}`
          : `translating for ${provider} failed unexpectedly (${(error as Error).message}); this may be a toolcircuit bug.`,
      },
    ];
  }
  const fallback = changes.find((change) => FALLBACK_KINDS.has(change.kind));
  const narrowing = changes.filter(narrows);
  const lossy = changes.filter((change) => isLossy(change) && !narrows(change));
  const other = changes.filter((change) => !isLossy(change) && !narrows(change) && !FALLBACK_KINDS.has(change.kind));
  const findings: LintFinding[] = fallback === undefined ? [] : [fallbackFinding(tool.name, fallback, provider)];
  if (narrowing.length > 0) {
    const affected = narrowing.map(
      (change) =>
        `${change.path === '' ? '(root)' : change.path}: ${change.narrows ?? `${change.kind}: ${change.detail}`}`,
    );
    findings.push({
      rule: 'provider-narrows',
      level: 'warning',
      tool: tool.name,
      provider,
      path: narrowing[0]?.path ?? '',
      message: `${provider} cannot carry these valid inputs: ${affected.slice(0, SHOWN_CHANGES).join('; ')}${affected.length > SHOWN_CHANGES ? `; and ${affected.length - SHOWN_CHANGES} more` : ''}.`,
    });
  }
  if (lossy.length > 0) {
    findings.push({
      rule: 'provider-drops',
      level: 'warning',
      tool: tool.name,
      provider,
      path: lossy[0]?.path ?? '',
      message: `${provider} will not see ${lossy.length} constraint(s): ${summarize(lossy)}`,
    });
  }
  if (other.length > 0) {
    findings.push({
      rule: 'provider-rewrites',
      level: 'note',
      tool: tool.name,
      provider,
      path: other[0]?.path ?? '',
      message: `${provider} receives ${other.length} rewrite(s): ${summarize(other)}`,
    });
  }
  return findings;
}

function summarize(changes: readonly SchemaChange[]): string {
  const shown = changes
    .slice(0, SHOWN_CHANGES)
    .map((change) => `${change.path === '' ? '(root)' : change.path} ${change.kind}: ${change.detail}`);
  const more = changes.length > SHOWN_CHANGES ? `; and ${changes.length - SHOWN_CHANGES} more` : '';
  return `${shown.join('; ')}${more}.`;
}
