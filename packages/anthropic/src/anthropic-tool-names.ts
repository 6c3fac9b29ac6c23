import type { BuiltinToolKind, ToolDeclaration } from '@toolcircuit/core';
import { createToolNameMap, type SchemaChange, type ToolNameMap } from '@toolcircuit/schema';
import { AnthropicConfigurationError } from './anthropic-configuration-error.js';

/**
 * The built-in tool types the Messages API declares natively (client tools the application runs): the type
 * sent, and the fixed name the model calls it by. A catalogue tool of one of these kinds is sent as
 * `{ type, name }` and its `tool_use` blocks come back under that name.
 */
export const ANTHROPIC_NATIVE_BUILTINS: Readonly<Partial<Record<BuiltinToolKind, { type: string; name: string }>>> = {
  shell: { type: 'bash_20250124', name: 'bash' },
  text_editor: { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' },
  computer: { type: 'computer_20250124', name: 'computer' },
  memory: { type: 'memory_20250818', name: 'memory' },
};

/**
 * The catalogue's names as Claude sees them: valid, unique names (see `createToolNameMap`), the fixed names of
 * the tools declared with a native built-in type, and which tools are text tools (sent as a function with one
 * string parameter, whose `input` is the text).
 */
export interface AnthropicToolNames extends ToolNameMap {
  readonly textTools: ReadonlySet<string>;
}

export function anthropicToolNames(declarations: readonly ToolDeclaration[]): AnthropicToolNames {
  const native = new Map<string, string>();
  for (const declaration of declarations) {
    const builtin = declaration.builtin === undefined ? undefined : ANTHROPIC_NATIVE_BUILTINS[declaration.builtin.kind];
    if (builtin === undefined) continue;
    // A tool's own `name` in its Anthropic options (a newer tool version) is the one the model calls.
    const own = declaration.providerOptions?.['anthropic']?.['name'];
    native.set(declaration.name, typeof own === 'string' ? own : builtin.name);
  }
  const base = createToolNameMap(
    declarations.filter((declaration) => !native.has(declaration.name)).map((declaration) => declaration.name),
    'anthropic',
  );
  const byProvider = new Map<string, string>();
  for (const [neutral, provider] of [...base.names, ...native]) {
    const taken = byProvider.get(provider);
    if (taken !== undefined) {
      throw new AnthropicConfigurationError(
        'invalid_option',
        'tools',
        `"${taken}" and "${neutral}" would both be called "${provider}" by the model (a built-in tool type's name is fixed); rename one.`,
      );
    }
    byProvider.set(provider, neutral);
  }
  if (native.size === 0 && !declarations.some((declaration) => declaration.textInput !== undefined)) {
    return { ...base, toProvider: base.toProvider, fromProvider: base.fromProvider, textTools: new Set() };
  }
  const changes: SchemaChange[] = [...base.changes];
  for (const [neutral, provider] of native) {
    if (neutral !== provider) {
      changes.push({
        path: '',
        kind: 'renamed',
        detail: `"${neutral}" is declared with Anthropic's native built-in type, whose model-facing name is "${provider}".`,
      });
    }
  }
  const fromNative = new Map([...native].map(([neutral, provider]) => [provider, neutral]));
  return {
    toProvider: (name) => native.get(name) ?? base.toProvider(name),
    fromProvider: (name) => fromNative.get(name) ?? base.fromProvider(name),
    changes,
    names: new Map([...base.names, ...native]),
    // Built-in names change what a history's calls are called: they are part of what conversions key on.
    key: `${base.key}\u0000${JSON.stringify([...native].sort())}`,
    textTools: new Set(declarations.filter((d) => d.textInput !== undefined).map((d) => d.name)),
  };
}
