import type { SchemaTarget } from '../schema-target.js';

export interface ToolNameRule {
  readonly pattern: RegExp;
  readonly maxLength: number;
  /** Characters allowed after the first, as a character class body (for sanitising). */
  readonly allowed: RegExp;
  /** Whether the first character must be a letter or `_`. */
  readonly mustStartWithLetter: boolean;
}

/**
 * Tool-name rules per provider (wire-formats.md):
 * - OpenAI (both modes): `^[a-zA-Z0-9_-]{1,64}$`.
 * - Anthropic: `^[a-zA-Z0-9_-]{1,128}$`, as quoted from current 400 responses
 *   ("tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'"); older API versions and
 *   Claude Desktop said {1,64}. Names of 65–128 characters are the only ones that depend on this.
 * - Gemini: starts with a letter or `_`, at most 64 characters of `[A-Za-z0-9_.-]`.
 */
export const TOOL_NAME_RULES: Readonly<Record<SchemaTarget, ToolNameRule>> = {
  openai: { pattern: /^[a-zA-Z0-9_-]{1,64}$/, maxLength: 64, allowed: /[a-zA-Z0-9_-]/, mustStartWithLetter: false },
  'openai-strict': {
    pattern: /^[a-zA-Z0-9_-]{1,64}$/,
    maxLength: 64,
    allowed: /[a-zA-Z0-9_-]/,
    mustStartWithLetter: false,
  },
  anthropic: {
    pattern: /^[a-zA-Z0-9_-]{1,128}$/,
    maxLength: 128,
    allowed: /[a-zA-Z0-9_-]/,
    mustStartWithLetter: false,
  },
  gemini: {
    pattern: /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/,
    maxLength: 64,
    allowed: /[A-Za-z0-9_.-]/,
    mustStartWithLetter: true,
  },
  'gemini-json-schema': {
    pattern: /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/,
    maxLength: 64,
    allowed: /[A-Za-z0-9_.-]/,
    mustStartWithLetter: true,
  },
};
