import type { ToolcircuitConfig } from './config-file.js';
import { ModelConfigurationError } from './errors/configuration-error.js';
import type { ModelConfig } from './model-config.js';
import { parseModelSpec } from './parse-model-spec.js';

/** Env var that selects the model (`provider:model`), overriding the config file. */
export const MODEL_ENV = 'TOOLCIRCUIT_MODEL';
/** Env var that overrides the endpoint (a proxy, a replay server, an OpenAI-compatible server). */
export const BASE_URL_ENV = 'TOOLCIRCUIT_BASE_URL';

export interface ResolveModelConfigInput {
  /** What the caller passed in code or on the command line: wins over everything. */
  readonly model?: string | ModelConfig | undefined;
  readonly config?: ToolcircuitConfig | undefined;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Picks the model: explicit argument, then `TOOLCIRCUIT_MODEL`, then the config file. Switching this one
 * value is the only change needed to run the same catalogue on another provider.
 */
export function resolveModelConfig(input: ResolveModelConfigInput): ModelConfig {
  const env = input.env ?? {};
  const chosen = pick(input, env);
  const baseURL = env[BASE_URL_ENV];
  return baseURL === undefined || baseURL === '' ? chosen : { ...chosen, baseURL };
}

function pick(input: ResolveModelConfigInput, env: Readonly<Record<string, string | undefined>>): ModelConfig {
  if (input.model !== undefined) {
    return typeof input.model === 'string' ? parseModelSpec(input.model, 'model') : input.model;
  }
  const fromEnv = env[MODEL_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return parseModelSpec(fromEnv, MODEL_ENV);
  const fromFile = input.config?.model;
  if (fromFile !== undefined) return typeof fromFile === 'string' ? parseModelSpec(fromFile, '/model') : fromFile;
  throw new ModelConfigurationError(
    'invalid_model_spec',
    'model',
    `no model chosen: pass one (e.g. --model anthropic:claude-sonnet-5-5), set ${MODEL_ENV}, or add "model" to toolcircuit.config.json.`,
  );
}
