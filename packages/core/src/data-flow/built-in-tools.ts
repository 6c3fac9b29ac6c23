import { type Catalogue, type CatalogueEntry, createCatalogue } from '../catalogue/catalogue.js';
import { everySession, type ToolDefinition } from '../catalogue/tool.js';
import type { JsonObject } from '../json/json.js';

export const DEFAULT_PLAN_TOOL = 'declare_plan';
export const DEFAULT_EXTRACT_TOOL = 'extract';

/** The tools a run's data-flow options add, compiled (their `run` is replaced per run: see `RunDataFlow`). */
export interface BuiltInEntries {
  readonly plan?: CatalogueEntry;
  readonly extract?: CatalogueEntry;
}

/**
 * The built-in tools for these names, made once per catalogue and set of names: compiling their schemas is
 * most of what they cost, and every run of an application asks for the same ones.
 */
export function builtInEntries(
  catalogue: Catalogue,
  plan: { readonly name: string; readonly gated: readonly string[] } | undefined,
  extract: string | undefined,
): BuiltInEntries {
  const key = JSON.stringify([plan?.name ?? null, plan?.gated ?? null, extract ?? null]);
  let byKey = cache.get(catalogue);
  if (byKey === undefined) {
    byKey = new Map();
    cache.set(catalogue, byKey);
  }
  let made = byKey.get(key);
  if (made === undefined) {
    const definitions: ToolDefinition<never>[] = [];
    if (plan !== undefined) definitions.push(planDefinition(plan.name, plan.gated));
    if (extract !== undefined) definitions.push(extractDefinition(extract));
    const compiled = createCatalogue(definitions);
    made = {
      ...(plan === undefined ? {} : { plan: compiled.get(plan.name) as CatalogueEntry }),
      ...(extract === undefined ? {} : { extract: compiled.get(extract) as CatalogueEntry }),
    };
    byKey.set(key, made);
  }
  return made;
}

const cache = new WeakMap<Catalogue, Map<string, BuiltInEntries>>();

function notPerRun(): never {
  throw new Error('a built-in data-flow tool runs only inside a run');
}

function planDefinition(name: string, gated: readonly string[]): ToolDefinition<never> {
  const inputSchema: JsonObject = {
    type: 'object',
    properties: {
      tools: {
        type: 'array',
        items: { type: 'string', enum: [...gated] },
        uniqueItems: true,
        description: 'The actions this task needs, by tool name (none: an empty list).',
      },
    },
    required: ['tools'],
    additionalProperties: false,
  };
  return Object.freeze({
    name,
    description:
      `Before reading anything from outside (mail, pages, files, documents), name the actions among ${gated.join(', ')} ` +
      "that the user's request needs. Once outside content has been read, the plan is frozen: an action it does " +
      'not name is refused.',
    inputSchema,
    right: everySession,
    irreversible: false,
    outputTrust: 'trusted' as const,
    run: notPerRun,
  });
}

function extractDefinition(name: string): ToolDefinition<never> {
  const inputSchema: JsonObject = {
    type: 'object',
    properties: {
      handle: { type: 'string', pattern: '^\\$doc[0-9]+$', description: 'The document, e.g. "$doc1".' },
      fields: {
        type: 'object',
        description:
          'A JSON Schema of type "object" with "properties": the values to read from the document, e.g. ' +
          '{"type":"object","properties":{"iban":{"type":"string"},"amount":{"type":"number"}}}.',
      },
      instructions: { type: 'string', maxLength: 1000, description: 'What to look for, when the fields need it.' },
    },
    required: ['handle', 'fields'],
    additionalProperties: false,
  };
  return Object.freeze({
    name,
    description:
      'Reads values out of a document kept aside (a handle such as "$doc1") without showing you its text: a ' +
      'separate reader fills the fields you ask for, and you get a reference for each value (e.g. "$doc1.iban") ' +
      'to pass as an argument value. Ask only for the fields the task needs.',
    inputSchema,
    right: everySession,
    irreversible: false,
    run: notPerRun,
  });
}
