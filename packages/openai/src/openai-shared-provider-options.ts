import type { JsonObject, ModelRequest } from '@toolcircuit/core';

/** This adapter's options bag from the request (`request.providerOptions[provider]`), if any. */
export function providerOptionsOf(request: ModelRequest, provider: string): JsonObject | undefined {
  return request.providerOptions?.[provider];
}

/**
 * Merges the options bag over the body the adapter built. The bag is the escape hatch for fields only
 * OpenAI understands (`reasoning`, `service_tier`, `include`…): it wins over the adapter's choices, and the
 * caller owns the types of what it puts there.
 */
export function mergeProviderOptions<T extends object>(body: T, bag: JsonObject | undefined): T {
  if (bag === undefined) return body;
  return { ...body, ...bag } as T;
}

/**
 * SDK response objects are decoded JSON, so they are JSON values; this says so to the type checker for data
 * kept in `providerMetadata` and sent back unchanged.
 */
export function asJsonObject(value: object): JsonObject {
  return value as JsonObject;
}
