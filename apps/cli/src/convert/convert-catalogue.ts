import type { JsonValue, ToolDeclaration } from '@toolcircuit/core';
import { createToolNameMap, type SchemaChange, SchemaTranslationError, translateSchema } from '@toolcircuit/schema';
import type { ToolListEntry } from '../catalogue/load-tool-list.js';
import { checkCoreRefusals } from '../lint/check-core-refusals.js';
import { type CliProvider, PROVIDER_TARGETS } from '../lint/lint-providers.js';
import { captureRequestBody } from './capture-request-body.js';
import { providerModelConfig } from './provider-model-config.js';

export interface ToolChange extends SchemaChange {
  readonly tool: string;
}

export interface ToolRefusal {
  readonly tool: string;
  readonly message: string;
}

export interface ConvertedCatalogue {
  readonly provider: CliProvider;
  /** The request body's `tools`, exactly as the adapter sent it. */
  readonly tools: JsonValue;
  /** Every rename and schema change, per tool (paths point into the tool's ORIGINAL schema). */
  readonly changes: readonly ToolChange[];
  /** Tools core refuses (as `lint` does) or the provider cannot receive at all; left out of `tools`. */
  readonly refused: readonly ToolRefusal[];
}

/** The catalogue as `provider` will receive it, plus what was changed and what cannot be sent. */
export async function convertCatalogue(
  tools: readonly ToolListEntry[],
  provider: CliProvider,
): Promise<ConvertedCatalogue> {
  const target = PROVIDER_TARGETS[provider];
  const changes: ToolChange[] = [];
  const refused: ToolRefusal[] = [];
  const sendable: ToolDeclaration[] = [];
  // What core's createCatalogue refuses never reaches a provider either: the same verdict as `lint`.
  const coreRefusals = new Map(checkCoreRefusals(tools).map((finding) => [finding.tool, finding.message]));
  const names = new Set<string>();
  for (const tool of tools) {
    const coreMessage = names.has(tool.name)
      ? `another tool is already named "${tool.name}"; createCatalogue refuses a duplicate name.`
      : coreRefusals.get(tool.name);
    names.add(tool.name);
    if (coreMessage !== undefined) {
      refused.push({ tool: tool.name, message: coreMessage });
      continue;
    }
    try {
      const translated = translateSchema(tool.inputSchema, target, { toolName: tool.name });
      changes.push(...translated.changes.map((change) => ({ tool: tool.name, ...change })));
      sendable.push(tool);
    } catch (error) {
      if (!(error instanceof SchemaTranslationError)) throw error;
      refused.push({ tool: tool.name, message: error.message });
    }
  }
  const nameMap = createToolNameMap(
    sendable.map((tool) => tool.name),
    target,
  );
  for (const [original, mapped] of nameMap.names) {
    if (original === mapped) continue;
    const change = nameMap.changes.find((candidate) => candidate.detail.startsWith(`"${original}" →`));
    if (change !== undefined) changes.unshift({ tool: original, ...change });
  }
  const body = await captureRequestBody((url) => providerModelConfig(provider, url), {
    messages: [{ role: 'user', content: 'toolcircuit convert' }],
    tools: sendable,
  });
  const sent = typeof body === 'object' && body !== null && !Array.isArray(body) ? body['tools'] : undefined;
  return { provider, tools: sent ?? [], changes, refused };
}
