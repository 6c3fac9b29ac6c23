import type { SchemaTarget } from '@toolcircuit/schema';

/**
 * The provider names `lint --provider` and `convert --provider` take, and the schema target each one's
 * adapter translates for. `openai-responses` translates like `openai` (same `parameters` dialect).
 */
export const PROVIDER_TARGETS = {
  anthropic: 'anthropic',
  openai: 'openai',
  'openai-strict': 'openai-strict',
  'openai-responses': 'openai',
  gemini: 'gemini',
} as const satisfies Record<string, SchemaTarget>;

export type CliProvider = keyof typeof PROVIDER_TARGETS;

export const CLI_PROVIDERS = Object.keys(PROVIDER_TARGETS) as CliProvider[];

/** What lint checks when no --provider is given: each adapter's default mode (OpenAI strict is opt-in). */
export const DEFAULT_LINT_PROVIDERS: readonly CliProvider[] = ['anthropic', 'openai', 'gemini'];
