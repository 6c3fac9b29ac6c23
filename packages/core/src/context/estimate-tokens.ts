import type { Message, ToolResultContent, ToolResultPart } from '../messages/messages.js';
import type { ToolDeclaration } from '../messages/model.js';

/**
 * The cheap token estimate a context policy works with before the provider has counted anything, and for
 * what was added since it last did: no tokenizer (each provider has its own, most are not public), a few
 * rules that err on the high side where text is dense.
 *
 * - ASCII text: 4 characters a token (English prose runs 4 to 5 with current tokenizers; JSON and code
 *   nearer 3, which the provider's own count then corrects, see `ContextShaper`).
 * - Any other character: a token each (CJK runs about 1, accented Latin far less: high on purpose), where
 *   they are common enough to show in a sample of every 16th character.
 * - Framing: a few tokens per message and per call or result, which the wire formats spend on roles and ids.
 * - An image 1,600 tokens, a file 3,000 (providers count media by pixels and pages, which the bytes do
 *   not tell).
 *
 * Each message is estimated once (messages are immutable once sent: core's contract), and so is each tool
 * list, so a request's estimate costs a lookup per message.
 */
export const CHARS_PER_TOKEN = 4;
export const IMAGE_TOKENS = 1_600;
export const FILE_TOKENS = 3_000;
const MESSAGE_OVERHEAD = 4;
const PART_OVERHEAD = 8;

const SAMPLE_STRIDE = 16;
const ASCII_RUNS = /[^\u0080-\uffff]+/g;
const byMessage = new WeakMap<Message, number>();
const byTools = new WeakMap<readonly ToolDeclaration[], number>();

/**
 * Tokens of a text: ASCII characters 4 a token, any other character a token. Only texts where other characters
 * are common are counted in full: a text is sampled every 16th character first (a 20 KB result in a microsecond,
 * where a full scan took ten), and counted only when the sample finds one; a text the sample passes over has
 * so few that they would add less than the margin on what the provider has not counted yet.
 */
export function textTokens(text: string): number {
  let sampled = false;
  for (let index = 0; index < text.length; index += SAMPLE_STRIDE) {
    if (text.charCodeAt(index) > 0x7f) {
      sampled = true;
      break;
    }
  }
  if (!sampled) return Math.ceil(text.length / CHARS_PER_TOKEN);
  // What is left once the runs of ASCII are taken out: the engine's own scan, faster than a loop here.
  const other = text.replace(ASCII_RUNS, '').length;
  return Math.ceil((text.length - other) / CHARS_PER_TOKEN) + other;
}

/** Tokens of one message as sent (cached per message object). */
export function messageTokens(message: Message): number {
  let tokens = byMessage.get(message);
  if (tokens === undefined) {
    tokens = MESSAGE_OVERHEAD + contentTokens(message);
    byMessage.set(message, tokens);
  }
  return tokens;
}

/** Tokens of a tool list's declarations (cached per array: the loop passes the same array for the same tools). */
export function toolsTokens(tools: readonly ToolDeclaration[]): number {
  let tokens = byTools.get(tools);
  if (tokens === undefined) {
    tokens = 0;
    for (const tool of tools) {
      tokens += PART_OVERHEAD + textTokens(tool.name) + textTokens(tool.description) + jsonTokens(tool.inputSchema);
      if (tool.inputExamples !== undefined) tokens += jsonTokens(tool.inputExamples);
    }
    byTools.set(tools, tokens);
  }
  return tokens;
}

/** Tokens of one tool result's content, as a provider receives it. */
export function resultTokens(part: ToolResultPart): number {
  return PART_OVERHEAD + resultContentTokens(part.content);
}

function contentTokens(message: Message): number {
  switch (message.role) {
    case 'system':
      return textTokens(message.content);
    case 'user': {
      if (typeof message.content === 'string') return textTokens(message.content);
      let tokens = 0;
      for (const part of message.content) tokens += textTokens(part.text);
      return tokens;
    }
    case 'tool': {
      let tokens = 0;
      for (const part of message.content) tokens += resultTokens(part);
      return tokens;
    }
    case 'assistant': {
      // The provider's own items (signatures, encrypted reasoning, hosted blocks) are sent back too.
      let tokens = message.providerMetadata === undefined ? 0 : jsonTokens(message.providerMetadata);
      for (const part of message.content) {
        // A provider part (an item the adapter did not understand) goes back whole, to its own provider.
        if (part.type === 'provider') {
          tokens += PART_OVERHEAD + jsonTokens(part.data);
          continue;
        }
        if (part.providerMetadata !== undefined) tokens += jsonTokens(part.providerMetadata);
        if (part.type === 'tool_call') {
          tokens += PART_OVERHEAD + textTokens(String(part.name));
          tokens += part.rawInput === undefined ? jsonTokens(part.input) : textTokens(part.rawInput);
        } else {
          tokens += textTokens(typeof part.text === 'string' ? part.text : '');
        }
      }
      return tokens;
    }
    default:
      return 0;
  }
}

function resultContentTokens(content: ToolResultContent): number {
  if (typeof content === 'string') return textTokens(content);
  let tokens = 0;
  for (const part of content) {
    if (part.type === 'text') tokens += textTokens(part.text);
    else if (part.type === 'json') tokens += jsonTokens(part.value);
    else tokens += part.type === 'image' ? IMAGE_TOKENS : FILE_TOKENS;
  }
  return tokens;
}

function jsonTokens(value: unknown): number {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    // A value JSON cannot hold (a cycle, a BigInt) is never sent as it is: the adapter's own copy is smaller.
    text = undefined;
  }
  return text === undefined ? 0 : textTokens(text);
}
