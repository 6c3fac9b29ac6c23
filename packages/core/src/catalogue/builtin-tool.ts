import { InvalidToolDefinitionError } from '../errors/invalid-tool-definition-error.js';

/**
 * Tool types a provider defines for execution on the application's side: the model is trained on them and
 * asks for them in the provider's own call shape, but the application runs them. A catalogue tool that says
 * `builtin: { kind }` is declared with the provider's native type where the provider has one (OpenAI
 * Responses `apply_patch`, `shell`, `local_shell`, `computer`; Anthropic `bash`, `text_editor`, `computer`,
 * `memory`), and as an ordinary function elsewhere. Either way its calls go through the four checks and the
 * confirmation like any other tool's; the tool receives the provider's own arguments (OpenAI's `operation`
 * or `action`, Anthropic's `input`), so its schema describes those.
 */
export type BuiltinToolKind = 'apply_patch' | 'shell' | 'local_shell' | 'computer' | 'text_editor' | 'memory';

export const BUILTIN_TOOL_KINDS: readonly BuiltinToolKind[] = Object.freeze([
  'apply_patch',
  'shell',
  'local_shell',
  'computer',
  'text_editor',
  'memory',
]);

/** Which built-in tool type a catalogue tool implements, and the settings that type needs. */
export interface BuiltinTool {
  readonly kind: BuiltinToolKind;
  /** The screen a `computer` tool controls, in pixels (required for `computer`). */
  readonly display?: { readonly width: number; readonly height: number };
}

/** A tool's `builtin` as its declaration carries it, checked once (frozen copy), or `undefined`. */
export function checkedBuiltin(toolName: string, builtin: unknown): BuiltinTool | undefined {
  if (builtin === undefined) return undefined;
  const { kind, display } = (typeof builtin === 'object' && builtin !== null ? builtin : {}) as {
    kind?: unknown;
    display?: unknown;
  };
  if (!BUILTIN_TOOL_KINDS.includes(kind as BuiltinToolKind)) {
    throw new InvalidToolDefinitionError(
      toolName,
      `\`builtin.kind\` must be one of ${BUILTIN_TOOL_KINDS.join(', ')} (got ${JSON.stringify(kind) ?? String(kind)}).`,
    );
  }
  if (display === undefined) {
    if (kind === 'computer') {
      throw new InvalidToolDefinitionError(
        toolName,
        'a `computer` tool needs `builtin.display: { width, height }`, the size in pixels of the screen it controls.',
      );
    }
    return Object.freeze({ kind: kind as BuiltinToolKind });
  }
  const { width, height } = (typeof display === 'object' && display !== null ? display : {}) as {
    width?: unknown;
    height?: unknown;
  };
  if (!isPixels(width) || !isPixels(height)) {
    throw new InvalidToolDefinitionError(
      toolName,
      '`builtin.display` must be { width, height }, whole numbers of pixels, 1 or more.',
    );
  }
  return Object.freeze({ kind: kind as BuiltinToolKind, display: Object.freeze({ width, height }) });
}

function isPixels(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1;
}
