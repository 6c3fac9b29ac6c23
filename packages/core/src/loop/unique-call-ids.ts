import type { Message, ToolCallPart } from '../messages/messages.js';
import type { ModelTurn } from '../messages/model-turn.js';

/** Kept from an original id in its replacement, so the new id still reads like the provider's. */
const ORIGINAL_PREFIX_LENGTH = 24;

/** The ids every call of the conversation so far holds, and every result answers. */
export function callIdsOf(messages: readonly Message[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) addCallIds(message, ids);
  return ids;
}

function addCallIds(message: Message, ids: Set<string>): void {
  if (message.role === 'assistant' && typeof message.content !== 'string') {
    for (const part of message.content) if (part.type === 'tool_call') ids.add(part.id);
  } else if (message.role === 'tool') {
    for (const part of message.content) ids.add(part.callId);
  }
}

interface CountedIds {
  counted: number;
  last: Message | undefined;
  readonly ids: Set<string>;
}

const countedIds = new WeakMap<readonly Message[], CountedIds>();

/**
 * {@link callIdsOf} of a list that only grows (a run's history), kept up to date instead of rebuilt: the loop
 * asks every turn, and reading the whole history each time made a run O(S²) in its calls. Only the messages
 * appended since the last call are read; a list that shrank or whose last counted message changed is read
 * again from the start. The set is the caller's to add to (this turn's ids, before its message is appended).
 */
export function growingCallIdsOf(messages: readonly Message[]): Set<string> {
  const known = countedIds.get(messages);
  if (
    known === undefined ||
    known.counted > messages.length ||
    (known.counted > 0 && messages[known.counted - 1] !== known.last)
  ) {
    const ids = callIdsOf(messages);
    countedIds.set(messages, { counted: messages.length, last: messages.at(-1), ids });
    return ids;
  }
  for (let index = known.counted; index < messages.length; index += 1) {
    addCallIds(messages[index] as Message, known.ids);
  }
  known.counted = messages.length;
  known.last = messages.at(-1);
  return known.ids;
}

/**
 * The turn with every call id unique in the whole conversation, so that no request ever repeats one (the
 * Anthropic API refuses a history with two `tool_use` blocks of the same id, and a result must pair with
 * exactly one call). A call whose id is missing, not a non-empty string (an OpenAI-compatible server's
 * `id: null`), or already used — earlier in this turn or in an earlier turn — gets a replacement that is
 * stable (the same turn gives the same ids, so a replayed or resumed run matches) and distinct; the call
 * keeps the provider's id in `originalId` (`null` when it had none), which the journal records beside the
 * replacement. The same object is returned when nothing had to change, which is the usual case.
 *
 * `used` holds the conversation's ids so far and receives this turn's.
 */
export function withUniqueCallIds(turn: ModelTurn, turnNumber: number, used: Set<string>): ModelTurn {
  let content: ModelTurn['content'][number][] | undefined;
  // A plain loop: asked every turn, and no callback to allocate.
  for (let index = 0; index < turn.content.length; index += 1) {
    const part = turn.content[index] as ModelTurn['content'][number];
    if (part.type !== 'tool_call') continue;
    const id: unknown = part.id;
    if (typeof id === 'string' && id !== '' && !used.has(id)) {
      used.add(id);
      continue;
    }
    const original = typeof id === 'string' && id !== '' ? id : null;
    const replacement = freshId(original, turnNumber, index, used);
    used.add(replacement);
    content ??= [...turn.content];
    content[index] = { ...part, id: replacement, originalId: original };
  }
  return content === undefined ? turn : { ...turn, content };
}

/** `<original>-t<turn>c<index>` (or `call-t…`), with a counter if even that is taken. */
function freshId(original: string | null, turn: number, index: number, used: ReadonlySet<string>): string {
  const stem = original === null ? 'call' : original.slice(0, ORIGINAL_PREFIX_LENGTH).replace(/[^A-Za-z0-9_-]/g, '_');
  const base = `${stem}-t${turn}c${index}`;
  let candidate = base;
  for (let counter = 2; used.has(candidate); counter += 1) candidate = `${base}-${counter}`;
  return candidate;
}

/**
 * The adapter's incomplete call ids (the provider's) as ids of the rewritten turn: a call listed under the
 * id it arrived with stays listed under its replacement.
 */
export function renamedIds(ids: ReadonlySet<string>, turn: ModelTurn): ReadonlySet<string> {
  if (ids.size === 0) return ids;
  const renamed = new Set<string>();
  for (const part of turn.content) {
    if (part.type !== 'tool_call') continue;
    if (ids.has(part.originalId ?? part.id)) renamed.add(part.id);
  }
  return renamed;
}

/** Whether `call` repeats the id of an earlier call of the same turn (it is refused, never run). */
export function repeatsAnEarlierId(call: ToolCallPart, earlier: ReadonlySet<string>): boolean {
  return typeof call.originalId === 'string' && earlier.has(call.originalId);
}
