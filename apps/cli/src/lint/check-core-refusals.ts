import {
  type AnyToolDefinition,
  createCatalogue,
  DuplicateToolNameError,
  everySession,
  InvalidToolDefinitionError,
  type JsonObject,
  type RefusedTool,
} from '@toolcircuit/core';
import type { LintFinding } from './lint-finding.js';

interface Tool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
}

/**
 * What `createCatalogue` would refuse, found by running it (lenient mode) on the list: one verdict for a
 * schema, the same message core throws. Duplicate names are the `duplicate-name` rule's; a blank
 * description becomes `missing-description` with core's message, and that tool is checked again with a
 * stand-in description so a broken schema behind it is still reported.
 */
export function checkCoreRefusals(tools: readonly Tool[]): LintFinding[] {
  const findings: LintFinding[] = [];
  const blank = new Set<number>();
  for (const refusal of refusalsOf(tools.map((tool) => definitionOf(tool, tool.description)))) {
    if (refusal.error instanceof DuplicateToolNameError) continue;
    const tool = tools[refusal.index];
    if (tool !== undefined && tool.description.trim() === '' && refusal.error instanceof InvalidToolDefinitionError) {
      blank.add(refusal.index);
      findings.push({ rule: 'missing-description', level: 'error', tool: tool.name, message: refusal.error.message });
    } else {
      findings.push(coreFinding(refusal));
    }
  }
  const retried = [...blank].map((index) => tools[index] as Tool);
  for (const refusal of refusalsOf(retried.map((tool) => definitionOf(tool, 'stand-in description')))) {
    if (!(refusal.error instanceof DuplicateToolNameError)) findings.push(coreFinding(refusal));
  }
  return findings;
}

function coreFinding(refusal: RefusedTool): LintFinding {
  return { rule: 'core-refuses', level: 'error', tool: refusal.name, message: refusal.error.message };
}

function definitionOf(tool: Tool, description: string): AnyToolDefinition {
  return {
    name: tool.name,
    description,
    inputSchema: tool.inputSchema,
    right: everySession,
    irreversible: false,
    run: () => undefined,
  };
}

/**
 * Lenient `createCatalogue` over the list, in rounds of distinct names (the n-th tool of each name in
 * round n), so that every tool's own schema is checked even when a name repeats.
 */
function refusalsOf(definitions: readonly AnyToolDefinition[]): RefusedTool[] {
  const rounds: { index: number; definition: AnyToolDefinition }[][] = [];
  const seen = new Map<string, number>();
  definitions.forEach((definition, index) => {
    const round = seen.get(definition.name) ?? 0;
    seen.set(definition.name, round + 1);
    const entries = rounds[round] ?? [];
    entries.push({ index, definition });
    rounds[round] = entries;
  });
  return rounds.flatMap((round) =>
    createCatalogue(
      round.map((entry) => entry.definition),
      { mode: 'lenient' },
    ).refused.map((refusal) => ({ ...refusal, index: round[refusal.index]?.index ?? refusal.index })),
  );
}
