import type { CatalogueTool } from '../catalogue/catalogue-tool.js';
import { SchemaTranslationError } from '../errors/schema-translation-error.js';
import { translateOutputSchema } from '../output/translate-output-schema.js';
import { OUTPUT_TARGETS, type OutputTarget } from '../output/translated-output-schema.js';

/** One file's schemas used as a run's output schema: how many every structured mode carries natively. */
export interface OutputCell {
  /** Every provider's structured mode takes it (OpenAI `json_schema`, Anthropic `output_config`, Gemini `responseJsonSchema`). */
  native: number;
  /** Anthropic carries it by the answer tool (an object open to undeclared keys, or recursion). */
  tool: number;
  /** Some target refuses it. */
  refused: number;
}

/** Per output target: natively with strict adherence, natively without, by the answer tool, refused. */
interface TargetCount {
  strict: number;
  loose: number;
  tool: number;
  refused: number;
}

export interface OutputPortability {
  readonly cells: ReadonlyMap<string, OutputCell>;
  readonly total: OutputCell;
  readonly targets: ReadonlyMap<OutputTarget, TargetCount>;
}

/** Every tool's input schema of the corpus, translated as a run's output schema for each structured mode. */
export function outputPortability(
  files: readonly { readonly source: string; readonly tools: readonly CatalogueTool[] }[],
): OutputPortability {
  const cells = new Map<string, OutputCell>();
  const total: OutputCell = { native: 0, tool: 0, refused: 0 };
  const targets = new Map<OutputTarget, TargetCount>(
    OUTPUT_TARGETS.map((target) => [target, { strict: 0, loose: 0, tool: 0, refused: 0 }]),
  );
  for (const file of files) {
    const cell: OutputCell = { native: 0, tool: 0, refused: 0 };
    for (const tool of file.tools) {
      let verdict: keyof OutputCell = 'native';
      for (const target of OUTPUT_TARGETS) {
        const count = targets.get(target) as TargetCount;
        try {
          const translated = translateOutputSchema(tool.inputSchema, target, { name: 'final_answer' });
          if (translated.carrier === 'tool') {
            count.tool += 1;
            if (verdict === 'native') verdict = 'tool';
          } else if (translated.strict) count.strict += 1;
          else count.loose += 1;
        } catch (error) {
          if (!(error instanceof SchemaTranslationError)) throw error;
          count.refused += 1;
          verdict = 'refused';
        }
      }
      cell[verdict] += 1;
      total[verdict] += 1;
    }
    cells.set(file.source, cell);
  }
  return { cells, total, targets };
}

export function outputCellText(cell: OutputCell | undefined): string {
  return cell === undefined ? '' : `${cell.native} / ${cell.tool} / ${cell.refused}`;
}

/** The report's section on output schemas, after its main table. */
export function outputSectionLines(
  portability: OutputPortability,
  tools: number,
  table: (rows: readonly (readonly string[])[], align: readonly ('left' | 'right')[]) => string[],
): string[] {
  const rows: string[][] = [
    ['structured mode', 'tools', 'native, strict', 'native, not strict', 'answer tool', 'refused'],
  ];
  const modes: Readonly<Record<OutputTarget, string>> = {
    anthropic: 'anthropic `output_config.format`',
    openai: 'openai `json_schema`',
    'openai-strict': 'openai-strict `json_schema`',
    'gemini-json-schema': 'gemini `responseJsonSchema`',
  };
  for (const target of OUTPUT_TARGETS) {
    const count = portability.targets.get(target) as TargetCount;
    rows.push([
      modes[target],
      String(tools),
      String(count.strict),
      String(count.loose),
      String(count.tool),
      String(count.refused),
    ]);
  }
  return [
    '## As a run’s output schema',
    '',
    'Each tool’s input schema used as `runLoop`’s `output.schema` (the structured final answer), translated by',
    '`translateOutputSchema` for each provider’s structured mode. Column _output_ above: carried natively by',
    'every structured mode / carried by the answer tool on Anthropic (an object open to undeclared keys, or',
    'recursion, which Anthropic’s structured outputs refuse) / refused by a target. _Native, not strict_: OpenAI',
    'without `strict` (strict mode would narrow the answer: `strict-off`); Gemini has no strict switch.',
    '',
    ...table(rows, ['left', 'right', 'right', 'right', 'right', 'right']),
    '',
  ];
}
