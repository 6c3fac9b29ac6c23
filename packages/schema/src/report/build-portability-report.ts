import type { CatalogueTool } from '../catalogue/catalogue-tool.js';
import { checkProviderSchema } from '../checkers/check-provider-schema.js';
import { SchemaTranslationError } from '../errors/schema-translation-error.js';
import { createToolNameMap } from '../names/create-tool-name-map.js';
import { SCHEMA_TARGETS, type SchemaTarget } from '../schema-target.js';
import { translateSchema } from '../translate/translate-schema.js';
import type { TranslatedSchema } from '../translated-schema.js';
import { outputCellText, outputPortability, outputSectionLines } from './output-portability.js';

export interface CatalogueFile {
  /** File name, e.g. `bfcl.json`. */
  readonly source: string;
  readonly tools: readonly CatalogueTool[];
}

/** Per target: is every valid input still possible on the provider side (by the change log)? */
interface Completeness {
  complete: number;
  /** Of the complete ones: sent in the looser dialect the API takes per tool (`TranslatedSchema.dialect`). */
  looser: number;
  /**
   * Only keys the schema declares open are lost (`additionalProperties: true` or a schema, `patternProperties`:
   * strict closing such an object, Gemini omitting `parameters` for such a root).
   */
  openKeys: number;
  /** Some other valid inputs cannot be sent (`narrows` on another change). */
  narrowed: number;
  /** Two union branches restore alike (`ambiguous-restore`). */
  ambiguous: number;
  refused: number;
}

const OPEN_KEYS: ReadonlySet<string> = new Set(['closed-object', 'omitted-parameters']);

/** Per file and target with a per-tool fallback: tools kept in the target's own dialect, and why the rest are not. */
interface Kept {
  kept: number;
  /** Why a tool goes in the looser dialect: the kinds of its own dialect's narrowing changes, or its refusal. */
  readonly causes: Map<string, number>;
}

/** The targets whose own dialect a tool may leave for a looser one (`TranslatedSchema.dialect`). */
const FALLBACK_TARGETS = ['openai-strict', 'gemini'] as const satisfies readonly SchemaTarget[];

interface Cell {
  unchanged: number;
  changed: number;
  refused: number;
  renamed: number;
}

/**
 * The PORTABILITY.md text for a set of catalogues: per source × target, how many tools translate
 * unchanged, translate with changes, or are refused; then the reasons. Deterministic (sorted, no dates),
 * so a test can compare it with the committed file.
 */
export function buildPortabilityReport(files: readonly CatalogueFile[]): string {
  const sorted = [...files].sort((a, b) => a.source.localeCompare(b.source));
  const cells = new Map<string, Cell>();
  const refusals = new Map<string, number>();
  const changeCounts = new Map<string, Map<SchemaTarget, number>>();
  let violations = 0;
  let tools = 0;
  const emptyVerdicts = (): Map<SchemaTarget, Completeness> =>
    new Map(
      SCHEMA_TARGETS.map((target) => [
        target,
        { complete: 0, looser: 0, openKeys: 0, narrowed: 0, ambiguous: 0, refused: 0 },
      ]),
    );
  const completeness = emptyVerdicts();
  // The same, with every tool in its target's own dialect (no per-tool fallback): what the fallback avoids.
  const ownDialect = emptyVerdicts();
  const narrowings = new Map<string, Map<SchemaTarget, number>>();
  const ambiguities: string[][] = [];
  const kept = new Map<string, Kept>();

  for (const file of sorted) {
    tools += file.tools.length;
    for (const target of SCHEMA_TARGETS) {
      const cell: Cell = { unchanged: 0, changed: 0, refused: 0, renamed: 0 };
      // A corpus file gathers many servers' catalogues, so names repeat across them: map the distinct names.
      const names = [...new Set(file.tools.map((tool) => tool.name))];
      cell.renamed = createToolNameMap(names, target).changes.length;
      for (const tool of file.tools) {
        try {
          const translated = translateSchema(tool.inputSchema, target, { toolName: tool.name });
          if (translated.changes.length === 0) cell.unchanged += 1;
          else cell.changed += 1;
          violations += checkProviderSchema(translated.schema, translated.dialect, {
            parametersOmitted: translated.omitParameters === true,
          }).length;
          tally(completeness.get(target), translated);
          const own = ownTranslation(tool, target);
          tally(ownDialect.get(target), own);
          countKept(kept, file.source, target, translated, own, tool);
          const narrowing = own?.changes.filter((change) => change.narrows !== undefined) ?? [];
          for (const change of own?.changes ?? []) {
            if (change.kind !== 'ambiguous-restore') continue;
            const chosen = translated.dialect === target ? 'own dialect' : translated.dialect;
            ambiguities.push([target, `${file.source} \`${tool.name}\``, change.path, chosen]);
          }
          for (const kind of new Set(narrowing.map((change) => change.kind))) {
            const perTarget = narrowings.get(kind) ?? new Map<SchemaTarget, number>();
            perTarget.set(target, (perTarget.get(target) ?? 0) + 1);
            narrowings.set(kind, perTarget);
          }
          const kinds = new Set(
            translated.changes.map((change) => `${change.kind}${change.keyword ? ` \`${change.keyword}\`` : ''}`),
          );
          for (const kind of kinds) {
            const perTarget = changeCounts.get(kind) ?? new Map<SchemaTarget, number>();
            perTarget.set(target, (perTarget.get(target) ?? 0) + 1);
            changeCounts.set(kind, perTarget);
          }
        } catch (error) {
          if (!(error instanceof SchemaTranslationError)) throw error;
          cell.refused += 1;
          tally(completeness.get(target), undefined);
          const own = ownTranslation(tool, target);
          tally(ownDialect.get(target), own);
          countKept(kept, file.source, target, undefined, own, tool);
          const key = `${target}: \`${error.reason}\``;
          refusals.set(key, (refusals.get(key) ?? 0) + 1);
        }
      }
      cells.set(`${file.source}\u0000${target}`, cell);
    }
  }

  const lines: string[] = [
    '# Portability of the shared tool catalogues',
    '',
    '<!-- Generated by `pnpm --filter @toolcircuit/schema report`; a test fails when this file is stale. Do not edit. -->',
    '',
    `${tools} tools from ${sorted.length} catalogue files, translated for each provider target by \`translateSchema\` and`,
    "checked by `checkProviderSchema` (each provider's documented subset, written apart from the translator).",
    `Checker violations in translated schemas: **${violations}**.`,
    '',
    'Cell: translated unchanged / translated with changes / refused. _output_: the schema as a run’s output',
    'schema, carried natively by every structured mode / by the answer tool on Anthropic / refused (see below).',
    '',
  ];
  const outputs = outputPortability(sorted);
  const main: string[][] = [['source', 'tools', ...SCHEMA_TARGETS, 'output']];
  const totals = new Map<SchemaTarget, Cell>(
    SCHEMA_TARGETS.map((target) => [target, { unchanged: 0, changed: 0, refused: 0, renamed: 0 }]),
  );
  for (const file of sorted) {
    const row = SCHEMA_TARGETS.map((target) => {
      const cell = cells.get(`${file.source}\u0000${target}`) ?? { unchanged: 0, changed: 0, refused: 0, renamed: 0 };
      const total = totals.get(target);
      if (total !== undefined) {
        total.unchanged += cell.unchanged;
        total.changed += cell.changed;
        total.refused += cell.refused;
        total.renamed += cell.renamed;
      }
      return `${cell.unchanged} / ${cell.changed} / ${cell.refused}`;
    });
    main.push([file.source, String(file.tools.length), ...row, outputCellText(outputs.cells.get(file.source))]);
  }
  const totalRow = SCHEMA_TARGETS.map((target) => {
    const cell = totals.get(target);
    return cell === undefined ? '' : `**${cell.unchanged} / ${cell.changed} / ${cell.refused}**`;
  });
  main.push(['**total**', `**${tools}**`, ...totalRow, `**${outputCellText(outputs.total)}**`]);
  lines.push(...table(main, ['left', 'right', ...SCHEMA_TARGETS.map(() => 'left' as const), 'left']), '');
  lines.push(...outputSectionLines(outputs, tools, table));

  lines.push(
    '## Strict mode and Gemini `parameters` kept, per file',
    '',
    "Tools sent in the target's own dialect: `openai-strict` with `strict: true`, `gemini` with `parameters`.",
    'The others go in the looser dialect because the own one would lose inputs the schema declares; _why_',
    'counts them by the narrowing change kind of the own dialect (or its refusal). Objects that merely omit',
    '`additionalProperties` are closed (`closed-implicit-object`): keys nobody declared are no input.',
    '',
  );
  const keptRows: string[][] = [
    ['source', 'tools', ...FALLBACK_TARGETS.flatMap((target) => [`${target} kept`, `${target}: why not`])],
  ];
  const keptTotals = new Map<string, Kept>(FALLBACK_TARGETS.map((target) => [target, { kept: 0, causes: new Map() }]));
  for (const file of sorted) {
    const cellsOf = FALLBACK_TARGETS.flatMap((target) => {
      const entry = kept.get(`${file.source}\u0000${target}`) ?? { kept: 0, causes: new Map<string, number>() };
      const total = keptTotals.get(target) as Kept;
      total.kept += entry.kept;
      for (const [cause, count] of entry.causes) total.causes.set(cause, (total.causes.get(cause) ?? 0) + count);
      return [share(entry.kept, file.tools.length), describeCauses(entry.causes)];
    });
    keptRows.push([file.source, String(file.tools.length), ...cellsOf]);
  }
  keptRows.push([
    '**total**',
    `**${tools}**`,
    ...FALLBACK_TARGETS.flatMap((target) => {
      const total = keptTotals.get(target) as Kept;
      return [`**${share(total.kept, tools)}**`, describeCauses(total.causes)];
    }),
  ]);
  lines.push(...table(keptRows, ['left', 'right', ...FALLBACK_TARGETS.flatMap(() => ['right', 'left'] as const)]), '');

  lines.push(
    '## Completeness',
    '',
    'Whether every input the original schema declares can still be sent to the provider and comes back from',
    '`restoreProviderInput` equal to what was meant (from the change log: a change that loses inputs carries',
    '`narrows`; `test/corpus-completeness.test.ts` checks the claim on every tool with generated inputs covering',
    'every union branch, keys declared open, optional properties left out or set to an explicit null, and, with',
    '`keepUndeclaredKeys`, undeclared keys of objects that omit `additionalProperties`). Where a dialect would',
    'lose inputs and the API takes a looser one per tool, that tool is sent in the looser one (_looser dialect_):',
    "`openai-strict` sends it with `strict: false` (change `strict-off`: strict mode's guarantee is lost for that",
    'tool, the executor still validates), `gemini` declares it with `parametersJsonSchema` (change',
    '`json-schema-parameters`).',
    '',
  );
  const header = [
    'target',
    'tools',
    'complete',
    'looser dialect',
    'declared open keys only',
    'other inputs narrowed',
    'ambiguous restore',
    'refused',
  ];
  const align = ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right'] as const;
  const verdictRows = (verdicts: ReadonlyMap<SchemaTarget, Completeness>): string[][] =>
    SCHEMA_TARGETS.map((target) => {
      const verdict = verdicts.get(target) as Completeness;
      return [
        target,
        String(tools),
        String(verdict.complete),
        String(verdict.looser),
        String(verdict.openKeys),
        String(verdict.narrowed),
        String(verdict.ambiguous),
        String(verdict.refused),
      ];
    });
  lines.push(...table([header, ...verdictRows(completeness)], align), '');
  lines.push(
    "Each target's own dialect for every tool (`translateSchema(…, { fallback: false })`), which is what the",
    'looser dialect avoids. _Declared open keys only_: the provider cannot carry keys an object declares open',
    '(`additionalProperties: true` or a schema, `patternProperties`): OpenAI strict closes such an object, Gemini',
    'calls such a tool without parameters without any.',
    '',
    ...table([header, ...verdictRows(ownDialect)], align),
    '',
  );
  if (narrowings.size > 0) {
    lines.push("Tools per narrowing change kind, in each target's own dialect:", '');
    const rows: string[][] = [['change', ...SCHEMA_TARGETS]];
    for (const [kind, perTarget] of [...narrowings].sort((a, b) => a[0].localeCompare(b[0])))
      rows.push([kind, ...SCHEMA_TARGETS.map((target) => String(perTarget.get(target) ?? 0))]);
    lines.push(...table(rows, ['left', ...SCHEMA_TARGETS.map(() => 'right' as const)]), '');
  }
  if (ambiguities.length > 0) {
    lines.push(
      "Unions whose branches the target's own dialect cannot tell apart when restoring (`ambiguous-restore`),",
      'and the dialect each tool is sent in instead:',
      '',
      ...table([['target', 'tool', 'union', 'sent as'], ...ambiguities], ['left', 'left', 'left', 'left']),
      '',
    );
  }

  lines.push(
    '## Tool names mapped to provider-valid names',
    '',
    'Distinct names per file (a corpus file gathers several servers, so a name can repeat).',
    '',
  );
  const names: string[][] = [['source', ...SCHEMA_TARGETS]];
  for (const file of sorted) {
    const renamed = SCHEMA_TARGETS.map((target) => String(cells.get(`${file.source}\u0000${target}`)?.renamed ?? 0));
    names.push([file.source, ...renamed]);
  }
  names.push(['**total**', ...SCHEMA_TARGETS.map((target) => `**${totals.get(target)?.renamed ?? 0}**`)]);
  lines.push(...table(names, ['left', ...SCHEMA_TARGETS.map(() => 'right' as const)]), '');

  lines.push('## Refusal reasons', '');
  if (refusals.size === 0) {
    lines.push('No tool of these catalogues is refused for any target.', '');
  } else {
    const rows = [...refusals].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    lines.push(
      ...table([['target: reason', 'tools'], ...rows.map(([key, count]) => [key, String(count)])], ['left', 'right']),
      '',
    );
  }

  lines.push(
    '## Most frequent changes',
    '',
    'Tools affected, per change kind and keyword (top 25 by total). Kinds are documented in `src/schema-change.ts`.',
    '',
  );
  const ranked = [...changeCounts]
    .map(([kind, perTarget]) => ({
      kind,
      perTarget,
      total: [...perTarget.values()].reduce((sum, count) => sum + count, 0),
    }))
    .sort((a, b) => b.total - a.total || a.kind.localeCompare(b.kind))
    .slice(0, 25);
  const changes: string[][] = [['change', ...SCHEMA_TARGETS]];
  for (const { kind, perTarget } of ranked)
    changes.push([kind, ...SCHEMA_TARGETS.map((target) => String(perTarget.get(target) ?? 0))]);
  lines.push(...table(changes, ['left', ...SCHEMA_TARGETS.map(() => 'right' as const)]), '');
  return lines.join('\n');
}

/** The target's own dialect for every tool, or undefined when that refuses the schema. */
function ownTranslation(tool: CatalogueTool, target: SchemaTarget): TranslatedSchema | undefined {
  try {
    return translateSchema(tool.inputSchema, target, { toolName: tool.name, fallback: false });
  } catch (error) {
    if (error instanceof SchemaTranslationError) return undefined;
    throw error;
  }
}

/** Counts one tool's verdict; `undefined` is a refusal. */
function tally(verdict: Completeness | undefined, translated: TranslatedSchema | undefined): void {
  if (verdict === undefined) return;
  if (translated === undefined) {
    verdict.refused += 1;
    return;
  }
  const narrowing = translated.changes.filter((change) => change.narrows !== undefined);
  if (translated.changes.some((change) => change.kind === 'ambiguous-restore')) verdict.ambiguous += 1;
  else if (narrowing.some((change) => !OPEN_KEYS.has(change.kind))) verdict.narrowed += 1;
  else if (narrowing.length > 0) verdict.openKeys += 1;
  else {
    verdict.complete += 1;
    if (translated.changes.some((change) => change.kind === 'strict-off' || change.kind === 'json-schema-parameters'))
      verdict.looser += 1;
  }
}

/** Counts a tool kept in `target`'s own dialect, or the reasons it is not (from that dialect's own translation). */
function countKept(
  kept: Map<string, Kept>,
  source: string,
  target: SchemaTarget,
  translated: TranslatedSchema | undefined,
  own: TranslatedSchema | undefined,
  tool: CatalogueTool,
): void {
  if (!(FALLBACK_TARGETS as readonly SchemaTarget[]).includes(target)) return;
  const key = `${source}\u0000${target}`;
  const entry = kept.get(key) ?? { kept: 0, causes: new Map<string, number>() };
  kept.set(key, entry);
  if (translated?.dialect === target) {
    entry.kept += 1;
    return;
  }
  const causes =
    own === undefined
      ? [`refused (${refusalReason(tool, target)})`]
      : [
          ...new Set(
            own.changes
              .filter((change) => change.narrows !== undefined || change.kind === 'ambiguous-restore')
              .map((change) => change.kind),
          ),
        ];
  for (const cause of causes) entry.causes.set(cause, (entry.causes.get(cause) ?? 0) + 1);
}

function refusalReason(tool: CatalogueTool, target: SchemaTarget): string {
  try {
    translateSchema(tool.inputSchema, target, { toolName: tool.name, fallback: false });
  } catch (error) {
    if (error instanceof SchemaTranslationError) return error.reason;
    throw error;
  }
  return 'unknown';
}

/** `2488 (99.1 %)`. */
function share(count: number, total: number): string {
  return `${count} (${total === 0 ? '0' : ((100 * count) / total).toFixed(1)} %)`;
}

/** `closed-object 13, made-nullable 9`, most frequent first; empty when every tool was kept. */
function describeCauses(causes: ReadonlyMap<string, number>): string {
  return [...causes]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([cause, count]) => `${cause} ${count}`)
    .join(', ');
}

/** A Markdown table padded the way the repository's formatter (Biome) pads it, so formatting is a no-op. */
function table(rows: readonly (readonly string[])[], align: readonly ('left' | 'right')[]): string[] {
  const widths = align.map((_, column) => Math.max(3, ...rows.map((row) => (row[column] ?? '').length)));
  const render = (row: readonly string[]): string =>
    `| ${widths.map((width, column) => (align[column] === 'right' ? (row[column] ?? '').padStart(width) : (row[column] ?? '').padEnd(width))).join(' | ')} |`;
  const [header, ...body] = rows;
  const separator = `| ${widths.map((width, column) => (align[column] === 'right' ? `${'-'.repeat(width - 1)}:` : '-'.repeat(width))).join(' | ')} |`;
  return [render(header ?? []), separator, ...body.map(render)];
}
