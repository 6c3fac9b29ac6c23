function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Merges an options bag into a request body: nested objects merge (so `generationConfig.thinkingConfig`
 * joins our `generationConfig.maxOutputTokens`), anything else in the bag replaces the body's value.
 * This is what `@google/genai` does with `httpOptions.extraBody`; the legacy binding uses it directly so
 * both SDKs put the same bag in the same place.
 */
export function deepMerge(
  base: Readonly<Record<string, unknown>>,
  extra: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    const current = merged[key];
    merged[key] = isPlainObject(current) && isPlainObject(value) ? deepMerge(current, value) : value;
  }
  return merged;
}
