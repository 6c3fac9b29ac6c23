import { didYouMean } from './did-you-mean.js';
import { ModelConfigurationError } from './errors/configuration-error.js';
import type { ModelConfig } from './model-config.js';
import { isProviderName, PROVIDERS } from './providers.js';

/**
 * Parses `"provider:model"` (`anthropic:claude-sonnet-5-5`, `google:gemini-2.5-flash`). Only the first colon
 * separates: model ids may contain colons themselves (fine-tuned OpenAI ids do).
 */
export function parseModelSpec(spec: string, field = 'model'): ModelConfig {
  if (spec.includes(',')) {
    throw new ModelConfigurationError(
      'invalid_model_spec',
      field,
      `${field}: "${spec}" is a list of models (a fallback list); give one "provider:model" here. createModel takes the list and builds the fallback.`,
    );
  }
  const colon = spec.indexOf(':');
  if (colon <= 0 || colon === spec.length - 1) {
    throw new ModelConfigurationError(
      'invalid_model_spec',
      field,
      `${field}: "${spec}" is not "provider:model". Write e.g. "anthropic:claude-sonnet-5-5" (providers: ${PROVIDERS.join(', ')}).`,
    );
  }
  const provider = spec.slice(0, colon).trim();
  const model = spec.slice(colon + 1).trim();
  if (!isProviderName(provider)) {
    throw new ModelConfigurationError(
      'unknown_provider',
      field,
      `${field}: unknown provider "${provider}".${didYouMean(provider, PROVIDERS)} Use one of: ${PROVIDERS.join(', ')}.`,
    );
  }
  return { provider, model };
}
