import type { Catalogue } from '../catalogue/catalogue.js';
import { InvalidLoopOptionsError } from '../errors/invalid-loop-options-error.js';
import type { ProvenanceOptions } from '../provenance/provenance-options.js';
import { pointerSegments } from './argument-paths.js';
import { DEFAULT_EXTRACT_TOOL, DEFAULT_PLAN_TOOL } from './built-in-tools.js';
import type { DataFlowOptions } from './data-flow-options.js';

/**
 * Rejects data-flow settings the loop could only misread: a misspelt tool name would leave a sink unchecked
 * or a document unquarantined, which is the kind of mistake that must not pass silently.
 */
export function checkDataFlowOptions(
  options: DataFlowOptions | undefined,
  catalogue: Catalogue,
  provenance: ProvenanceOptions | false | undefined,
): void {
  if (options === undefined) {
    if (provenance === false && declaresTrustedOnly(catalogue)) {
      throw new InvalidLoopOptionsError(
        'provenance',
        "it is false, but tools of the catalogue declare `trustedOnly` arguments, which need the run's provenance; leave provenance on.",
      );
    }
    return;
  }
  if (typeof options !== 'object' || options === null) {
    throw new InvalidLoopOptionsError(
      'dataFlow',
      'give an object ({ trustedOnly, vouched, plan, quarantine }), or leave it out.',
    );
  }
  if (provenance === false) {
    throw new InvalidLoopOptionsError(
      'dataFlow',
      "it needs the run's provenance, which `provenance: false` turns off.",
    );
  }
  const known = (name: unknown): boolean => typeof name === 'string' && catalogue.get(name) !== undefined;
  for (const [name, rule] of Object.entries(options.trustedOnly ?? {})) {
    if (!known(name))
      throw new InvalidLoopOptionsError(
        'dataFlow.trustedOnly',
        `"${name.slice(0, 80)}" is not in the catalogue; name catalogue tools only.`,
      );
    const valid =
      typeof rule === 'function' || (Array.isArray(rule) && rule.every((path) => pointerSegments(path) !== undefined));
    if (!valid) {
      throw new InvalidLoopOptionsError(
        `dataFlow.trustedOnly.${name.slice(0, 80)}`,
        'give JSON Pointers into the input (e.g. ["/to", "/iban"]; a segment "*" for every element), or a function returning them.',
      );
    }
  }
  const vouched: unknown = options.vouched;
  if (
    vouched !== undefined &&
    !(
      Array.isArray(vouched) &&
      vouched.every((value) => typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)))
    )
  ) {
    throw new InvalidLoopOptionsError('dataFlow.vouched', 'give a list of strings and numbers.');
  }
  const { plan, quarantine } = options;
  const builtIns: string[] = [];
  if (plan !== undefined) {
    const tools: unknown = plan.tools;
    if (tools !== undefined && !(Array.isArray(tools) && tools.every(known))) {
      throw new InvalidLoopOptionsError('dataFlow.plan.tools', 'give a list of catalogue tool names.');
    }
    if (tools === undefined && plan.declare !== true) {
      throw new InvalidLoopOptionsError(
        'dataFlow.plan',
        "give the application's list (`tools`), let the model declare it (`declare: true`), or both.",
      );
    }
    if (plan.declare === true) builtIns.push(plan.toolName ?? DEFAULT_PLAN_TOOL);
  }
  if (quarantine !== undefined) {
    const tools: unknown = quarantine.tools;
    if (!(Array.isArray(tools) && tools.every(known))) {
      throw new InvalidLoopOptionsError('dataFlow.quarantine.tools', 'give a list of catalogue tool names.');
    }
    const trusted = (tools as string[]).filter(
      (name) => (provenance?.outputTrust?.[name] ?? catalogue.get(name)?.definition.outputTrust) === 'trusted',
    );
    if (trusted.length > 0) {
      throw new InvalidLoopOptionsError(
        'dataFlow.quarantine.tools',
        `${trusted.join(', ')} ${trusted.length === 1 ? 'has' : 'have'} trusted output; quarantine only tools whose output comes from outside.`,
      );
    }
    const reader: unknown = quarantine.reader;
    if (
      typeof reader !== 'object' ||
      reader === null ||
      typeof (reader as { generate?: unknown }).generate !== 'function'
    ) {
      throw new InvalidLoopOptionsError(
        'dataFlow.quarantine.reader',
        'give a model built by an adapter (createModel, createAnthropicModel…) or a scripted one.',
      );
    }
    builtIns.push(quarantine.extractToolName ?? DEFAULT_EXTRACT_TOOL);
  }
  for (const name of builtIns) {
    if (typeof name !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(name)) {
      throw new InvalidLoopOptionsError(
        'dataFlow',
        `the built-in tool name ${JSON.stringify(name)} is not a tool name every provider accepts.`,
      );
    }
    if (catalogue.get(name) !== undefined) {
      throw new InvalidLoopOptionsError(
        'dataFlow',
        `the catalogue already has a tool named "${name}"; give the built-in tool another name (\`plan.toolName\`, \`quarantine.extractToolName\`).`,
      );
    }
  }
  if (builtIns.length === 2 && builtIns[0] === builtIns[1]) {
    throw new InvalidLoopOptionsError('dataFlow', 'the plan and extraction tools have the same name; give them two.');
  }
}

/** Whether a catalogue tool declares trusted-only arguments (cached: catalogues are immutable). */
export function declaresTrustedOnly(catalogue: Catalogue): boolean {
  let declares = declaring.get(catalogue);
  if (declares === undefined) {
    declares = catalogue.names.some((name) => catalogue.get(name)?.definition.trustedOnly !== undefined);
    declaring.set(catalogue, declares);
  }
  return declares;
}

const declaring = new WeakMap<Catalogue, boolean>();
