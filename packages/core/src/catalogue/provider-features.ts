import { isPromiseLike } from '../async/eventually.js';
import { InvalidToolDefinitionError } from '../errors/invalid-tool-definition-error.js';
import type { JsonObject } from '../json/json.js';
import type { ToolDeclaration } from '../messages/model.js';
import type { AnyToolDefinition } from './tool.js';
import type { InputValidator } from './validate-input.js';

type ProviderFeatures = Pick<ToolDeclaration, 'strict' | 'inputExamples' | 'providerOptions'>;

/**
 * A tool's per-provider features as its declaration carries them, checked once: `strict` is a boolean, each
 * input example is a JSON object its own schema accepts (an example the tool would refuse teaches the model
 * the wrong thing), and `providerOptions` holds one JSON object per provider.
 */
export function providerFeaturesOf(tool: AnyToolDefinition, validate: InputValidator): ProviderFeatures {
  const features: { -readonly [K in keyof ProviderFeatures]: ProviderFeatures[K] } = {};
  const strict: unknown = tool.strict;
  if (strict !== undefined) {
    if (typeof strict !== 'boolean') {
      throw new InvalidToolDefinitionError(tool.name, '`strict` must be true or false, or left out.');
    }
    features.strict = strict;
  }
  if (tool.inputExamples !== undefined) features.inputExamples = checkedExamples(tool, validate);
  const options: unknown = tool.providerOptions;
  if (options !== undefined) {
    if (!isObject(options) || !Object.values(options).every(isObject)) {
      throw new InvalidToolDefinitionError(
        tool.name,
        '`providerOptions` must map provider names to objects, e.g. { anthropic: { cache_control: { type: "ephemeral" } } }.',
      );
    }
    features.providerOptions = Object.freeze(JSON.parse(JSON.stringify(options)) as Record<string, JsonObject>);
  }
  return features;
}

/**
 * A tool's description with its input examples appended (`Example inputs:`, then one JSON line each), for
 * providers that have no field for examples: the model still sees them, where it reads about the tool.
 */
export function descriptionWithExamples(tool: Pick<ToolDeclaration, 'description' | 'inputExamples'>): string {
  const examples = tool.inputExamples;
  if (examples === undefined || examples.length === 0) return tool.description;
  return `${tool.description}\n\nExample inputs:\n${examples.map((example) => JSON.stringify(example)).join('\n')}`;
}

function checkedExamples(tool: AnyToolDefinition, validate: InputValidator): readonly JsonObject[] {
  const examples: unknown = tool.inputExamples;
  if (!Array.isArray(examples)) {
    throw new InvalidToolDefinitionError(tool.name, '`inputExamples` must be an array of example inputs.');
  }
  const copies = examples.map((example: unknown, index): JsonObject => {
    if (!isObject(example)) {
      throw new InvalidToolDefinitionError(tool.name, `input example ${index} is not a JSON object.`);
    }
    let copy: JsonObject;
    try {
      copy = JSON.parse(JSON.stringify(example)) as JsonObject;
    } catch {
      throw new InvalidToolDefinitionError(tool.name, `input example ${index} is not plain JSON data.`);
    }
    const checked = validate(copy);
    // An asynchronous Standard Schema cannot be answered here; its examples are sent as given.
    if (!isPromiseLike(checked) && !checked.ok) {
      throw new InvalidToolDefinitionError(
        tool.name,
        `input example ${index} does not fit the tool's own schema (${checked.message}); fix the example or the schema.`,
      );
    }
    return copy;
  });
  return Object.freeze(copies.map((copy) => Object.freeze(copy)));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
