import type {
  ContentBlockParam,
  MessageParam,
  TextBlockParam,
  TextCitationParam,
  ToolResultBlockParam,
  ToolUseBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import type {
  AssistantContentPart,
  AssistantMessage,
  ConversionCache,
  JsonObject,
  JsonValue,
  Message,
  ReasoningPart,
  TextPart,
  ToolCallPart,
  ToolResultPart,
} from '@toolcircuit/core';
import { cachedConversion, recordResultContentChanges } from '@toolcircuit/core/provider';
import { type ToolNameMap, textToolArguments } from '@toolcircuit/schema';
import { providerToolName } from './anthropic-prepare-tools.js';
import { turnMessage } from './anthropic-turn-message.js';
import { convertToAnthropicToolResult } from './convert-to-anthropic-tool-result.js';

export interface AnthropicPrompt {
  /** Top-level `system`: the request's system text, then any system messages, in order. */
  readonly system: string | undefined;
  /** A new array each time; each message in it is frozen and shared with later requests (copy to change one). */
  readonly messages: MessageParam[];
}

type Role = 'user' | 'assistant';

/**
 * Neutral history → Messages API `system` + `messages`.
 * - A tool message becomes ONE user message of `tool_result` blocks (with `is_error`), and a user text that
 *   follows is merged after them: Anthropic wants the results first, right after the `tool_use` turn.
 * - Consecutive messages of the same role are merged, since the API requires user/assistant alternation.
 * - Thinking blocks are rebuilt from `providerMetadata.anthropic` (`signature`, or `data` for redacted
 *   thinking) exactly as received; reasoning without them (another provider's) is dropped, because the API
 *   rejects thinking it did not sign.
 * - Server-tool blocks kept in the assistant message's `providerMetadata.anthropic.serverBlocks` are put
 *   back in place, unchanged, and so are the blocks kept as `provider` parts; a text's citations go with it.
 * - Empty text is skipped: the API rejects empty text blocks.
 */
export function convertToAnthropicMessages(
  system: string | undefined,
  messages: readonly Message[],
  names: ToolNameMap,
): AnthropicPrompt {
  const systemParts = system === undefined || system === '' ? [] : [system];
  const turns: { role: Role; parts: (readonly ContentBlockParam[])[] }[] = [];
  const push = (role: Role, blocks: readonly ContentBlockParam[]): void => {
    if (blocks.length === 0) return;
    const last = turns.at(-1);
    // Consecutive same-role messages share one turn; their cached, frozen block lists are never changed.
    if (last?.role === role) last.parts.push(blocks);
    else turns.push({ role, parts: [blocks] });
  };

  for (const message of messages) {
    if (message.role === 'system') {
      if (message.content !== '') systemParts.push(message.content);
      continue;
    }
    push(message.role === 'assistant' ? 'assistant' : 'user', convertMessage(message, names));
  }

  return {
    system: systemParts.length === 0 ? undefined : systemParts.join('\n\n'),
    messages: turns.map(({ role, parts }) => turnMessage(role, parts)),
  };
}

const conversions: ConversionCache<readonly ContentBlockParam[]> = new WeakMap();

/** One non-system message's blocks, converted once per message (and per provider names of its calls). */
function convertMessage(
  message: Exclude<Message, { role: 'system' }>,
  names: ToolNameMap,
): readonly ContentBlockParam[] {
  switch (message.role) {
    case 'user':
      return cachedConversion(conversions, message, '', undefined, () => userBlocks(message.content));
    case 'assistant':
      // The only thing outside the message an assistant turn's conversion reads: the provider names of its
      // calls, which `names.key` identifies for every name at once.
      return cachedConversion(conversions, message, names.key, undefined, () => assistantBlocks(message, names));
    case 'tool':
      return cachedConversion(conversions, message, '', undefined, () => message.content.map(toolResultBlock));
  }
}

function userBlocks(content: string | readonly { readonly text: string }[]): TextBlockParam[] {
  const texts = typeof content === 'string' ? [content] : content.map((part) => part.text);
  return texts.filter((text) => text !== '').map((text) => ({ type: 'text', text }));
}

// Server-tool blocks (code execution…) go back where they were, between the neutral parts around them.
function assistantBlocks(message: AssistantMessage, names: ToolNameMap): ContentBlockParam[] {
  const server = serverBlocksOf(message.providerMetadata?.['anthropic']?.['serverBlocks']);
  const blocks: ContentBlockParam[] = [];
  message.content.forEach((part, index) => {
    for (const entry of server) if (entry.before === index) blocks.push(entry.block);
    blocks.push(...assistantBlock(part, names));
  });
  for (const entry of server) if (entry.before >= message.content.length) blocks.push(entry.block);
  return blocks;
}

function serverBlocksOf(value: JsonValue | undefined): { before: number; block: ContentBlockParam }[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry) => {
    if (!isJsonObject(entry) || typeof entry['before'] !== 'number' || !isJsonObject(entry['block'])) return [];
    return [{ before: entry['before'], block: entry['block'] as unknown as ContentBlockParam }];
  });
}

function assistantBlock(part: AssistantContentPart, names: ToolNameMap): ContentBlockParam[] {
  switch (part.type) {
    case 'text':
      return part.text === '' ? [] : [textBlock(part)];
    case 'reasoning':
      return thinkingBlock(part);
    case 'tool_call':
      return [toolUseBlock(part, names)];
    case 'provider':
      // A block this adapter could not read goes back where it was, unchanged; another provider's is left out.
      return part.provider === 'anthropic' ? [part.data as unknown as ContentBlockParam] : [];
  }
}

// A text's citations go back with it, as Claude gave them (web search ones carry their encrypted index).
function textBlock(part: TextPart): TextBlockParam {
  const citations = part.providerMetadata?.['anthropic']?.['citations'];
  if (!Array.isArray(citations) || citations.length === 0) return { type: 'text', text: part.text };
  return { type: 'text', text: part.text, citations: citations as unknown as TextCitationParam[] };
}

function thinkingBlock(part: ReasoningPart): ContentBlockParam[] {
  const meta = part.providerMetadata?.['anthropic'];
  const data = meta?.['data'];
  if (typeof data === 'string') return [{ type: 'redacted_thinking', data }];
  const signature = meta?.['signature'];
  if (typeof signature === 'string') return [{ type: 'thinking', thinking: part.text, signature }];
  return [];
}

function toolUseBlock(part: ToolCallPart, names: ToolNameMap): ToolUseBlockParam {
  // The API only accepts an object; a call whose input could not be decoded (or was cut off) is sent as
  // `{}`; its tool_result says why it was not run.
  const block: ToolUseBlockParam = {
    type: 'tool_use',
    id: part.id,
    name: providerToolName(names, part.name),
    // A text tool's call: declared here as a function with one string parameter, `input`.
    input: typeof part.input === 'string' ? textToolArguments(part.input) : isJsonObject(part.input) ? part.input : {},
  };
  const caller = part.providerMetadata?.['anthropic']?.['caller'];
  if (isJsonObject(caller)) block.caller = caller as unknown as NonNullable<ToolUseBlockParam['caller']>;
  return block;
}

function toolResultBlock(part: ToolResultPart): ToolResultBlockParam {
  const { block, changes } = convertToAnthropicToolResult(part);
  recordResultContentChanges(part, changes);
  return block;
}

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
