/** One way a schema breaks a provider's documented rules. */
export interface ProviderViolation {
  /** JSON pointer into the CHECKED (provider-side) schema. */
  readonly path: string;
  /** Stable rule id, e.g. `gemini/unknown-keyword`. */
  readonly rule: string;
  readonly message: string;
}
