import type { InferToolInput, ToolInputSchema } from '../catalogue/tool.js';

/**
 * What a run's answer may be described with: the same schemas a tool's input takes, a JSON Schema object or
 * a Standard Schema with Standard JSON Schema support (Zod 4.2+…), whose root is an object.
 */
export type OutputSchema = ToolInputSchema;

/**
 * The type of `result.output`, inferred as a tool's input is: the Standard Schema's output type, or
 * `FromSchema` of a JSON Schema literal (no `as const` needed: `runLoop`'s schema parameter is `const`).
 */
export type InferOutput<S> = InferToolInput<S>;

/** The loop's `output` option: ask for the run's final answer as a typed object, tools still allowed. */
export interface OutputOptions<S extends OutputSchema = OutputSchema> {
  /** The answer's schema; the model's answer is validated against it with the tools' validator. */
  readonly schema: S;
  /**
   * The answer's name on the wire (OpenAI `json_schema.name`, the answer tool where one is used): letters,
   * digits, `_` and `-`, at most 64. Default `final_answer`.
   */
  readonly name?: string;
  /** What the answer is for, shown to the model with the schema. */
  readonly description?: string;
  /**
   * Strict schema adherence where the provider has the switch (OpenAI); default true. A schema strict mode
   * would narrow (an open object, a map) is still sent without it, as tools are.
   */
  readonly strict?: boolean;
}

/** Why a run has no `output`: the model declined to answer (a refusal, or the provider's content filter). */
export interface OutputRefusal {
  /** `refusal`: the model refused (OpenAI `refusal`, Anthropic stop reason `refusal`); `content_filter`: the provider blocked the answer. */
  readonly reason: 'refusal' | 'content_filter';
  /** What the model said, when it said anything. */
  readonly text: string;
}
