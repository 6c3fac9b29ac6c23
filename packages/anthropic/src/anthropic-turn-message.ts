import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { sealForReuse } from '@toolcircuit/core/provider';

/** The converted (cached, frozen) block lists of the neutral messages merged into one API turn, in order. */
export type TurnParts = readonly (readonly ContentBlockParam[])[];

type Role = 'user' | 'assistant';

interface CachedTurn {
  readonly role: Role;
  readonly parts: TurnParts;
  readonly message: MessageParam;
}

// Keyed by the turn's first part: the loop keeps the same Message objects from step to step, so their cached
// conversions, and the turns made of them, are the same objects too.
const turns = new WeakMap<readonly ContentBlockParam[], CachedTurn>();

/**
 * One API message for a turn, made once while the same converted messages make it up, and sealed (frozen, with its
 * content): the request body reuses its JSON text on every later step (core's `stringifyRequestBody`). A turn
 * that gains a message (a user text after the tool results) is a different list of parts and is made again.
 * User turns put their `tool_result` blocks first: Anthropic wants them right after the `tool_use` turn.
 */
export function turnMessage(role: Role, parts: TurnParts): MessageParam {
  const first = parts[0];
  if (first === undefined) throw new Error('a turn has at least one converted message');
  const hit = turns.get(first);
  if (hit !== undefined && hit.role === role && sameParts(hit.parts, parts)) return hit.message;
  const blocks = parts.flat();
  const content = sealForReuse(role === 'user' ? resultsFirst(blocks) : blocks);
  // The SDK types content as a mutable array; nothing writes to it (the adapter builds new arrays, the SDK
  // only reads), and a frozen one makes an accidental write fail loudly instead of corrupting later steps.
  const message: MessageParam = sealForReuse({ role, content: content as ContentBlockParam[] });
  turns.set(first, { role, parts, message });
  return message;
}

function sameParts(a: TurnParts, b: TurnParts): boolean {
  return a.length === b.length && a.every((part, index) => part === b[index]);
}

// Stable: tool results keep their call order, other blocks theirs.
function resultsFirst(blocks: readonly ContentBlockParam[]): ContentBlockParam[] {
  return [...blocks.filter((b) => b.type === 'tool_result'), ...blocks.filter((b) => b.type !== 'tool_result')];
}
