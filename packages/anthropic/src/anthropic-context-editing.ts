import type { BetaContextManagementConfig } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { ContextEditing } from '@toolcircuit/core';
import type { ToolNameMap } from '@toolcircuit/schema';

/**
 * Anthropic's context editing (`context_management`, beta): the API clears old tool results itself before
 * the prompt reaches Claude, the request still carrying them whole. `@anthropic-ai/sdk` 1.14 types it on the
 * beta Messages API only; the adapter sends it through `messages.create` with the beta header, as the SDK's
 * own `beta.messages.create({ betas })` would.
 * @see https://platform.claude.com/docs/en/build-with-claude/context-editing
 */
export const CONTEXT_MANAGEMENT_BETA = 'context-management-2025-06-27';

/**
 * Whether a model id names a model with context editing: Claude 4 and later (Opus, Sonnet, Haiku 4.5 and
 * newer, the later families), not Claude 3.x nor older. A name the rule does not know (a proxy's alias, a
 * cloud platform's id) is taken as not supporting it: the `contextEditing` option says otherwise.
 */
export function supportsContextEditing(modelId: string): boolean {
  return /^claude-(?:(?:opus|sonnet)-(?:[4-9]|\d{2,})|haiku-(?:4-5|[5-9]|\d{2,})|fable|mythos)(?:\b|-|$)/.test(modelId);
}

/**
 * The neutral edit as the Messages API's `context_management`: one `clear_tool_uses_20250919` edit, its kept
 * tools named as the wire names them.
 */
export function anthropicContextManagement(editing: ContextEditing, names: ToolNameMap): BetaContextManagementConfig {
  const { triggerTokens, keepToolUses, clearAtLeastTokens, excludeTools } = editing.clearToolResults;
  return {
    edits: [
      {
        type: 'clear_tool_uses_20250919',
        trigger: { type: 'input_tokens', value: triggerTokens },
        keep: { type: 'tool_uses', value: keepToolUses },
        ...(clearAtLeastTokens > 0 ? { clear_at_least: { type: 'input_tokens', value: clearAtLeastTokens } } : {}),
        ...(excludeTools === undefined || excludeTools.length === 0
          ? {}
          : { exclude_tools: excludeTools.map((name) => names.toProvider(name)) }),
      },
    ],
  };
}
