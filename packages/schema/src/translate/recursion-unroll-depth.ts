/**
 * How many times a recursive schema is expanded inside itself for dialects without `$ref` (Gemini
 * `parameters`). Below that depth the value travels as JSON text, decoded by `restoreProviderInput`.
 */
export const RECURSION_UNROLL_DEPTH = 3;
