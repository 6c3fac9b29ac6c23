import type { Model, ModelRequest, ProviderOptions } from '@toolcircuit/core';

/**
 * Adds the config's `providerOptions` to every request the model gets. Per provider key, a request's own
 * fields win over the config's: the config sets defaults, code can still override one call.
 */
export function withProviderOptions(model: Model, defaults: ProviderOptions | undefined): Model {
  if (defaults === undefined || Object.keys(defaults).length === 0) return model;
  const merge = (request: ModelRequest): ModelRequest => ({
    ...request,
    providerOptions: mergeProviderOptions(defaults, request.providerOptions),
  });
  const stream = model.stream;
  return {
    provider: model.provider,
    modelId: model.modelId,
    generate: (request) => model.generate(merge(request)),
    ...(stream === undefined ? {} : { stream: (request: ModelRequest) => stream.call(model, merge(request)) }),
  };
}

function mergeProviderOptions(defaults: ProviderOptions, overrides: ProviderOptions | undefined): ProviderOptions {
  if (overrides === undefined) return defaults;
  const merged: Record<string, ProviderOptions[string]> = { ...defaults };
  for (const [key, value] of Object.entries(overrides)) merged[key] = { ...(defaults[key] ?? {}), ...value };
  return merged;
}
