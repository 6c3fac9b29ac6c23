import type { SchemaTarget } from '../schema-target.js';
import type { TranslatedSchema } from '../translated-schema.js';

/** The providers' structured modes, by the dialect their answer schema is written in. */
export type OutputTarget = Extract<SchemaTarget, 'anthropic' | 'openai' | 'openai-strict' | 'gemini-json-schema'>;

/** Every output target, in a stable order (the portability report iterates over it). */
export const OUTPUT_TARGETS: readonly OutputTarget[] = Object.freeze([
  'anthropic',
  'openai-strict',
  'gemini-json-schema',
]);

export interface TranslatedOutputSchema extends TranslatedSchema {
  /**
   * How the provider can carry the answer: `native`, in its structured mode; `tool`, only as the input of an
   * answer tool (Anthropic, for a schema its structured mode cannot take; see `translateOutputSchema`).
   */
  readonly carrier: 'native' | 'tool';
  /** Whether the answer goes with strict adherence: OpenAI's `strict` (false after `strict-off`), Anthropic native. */
  readonly strict: boolean;
}
