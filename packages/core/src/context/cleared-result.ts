import type { Catalogue } from '../catalogue/catalogue.js';
import type { ToolMessage, ToolResultContent, ToolResultPart } from '../messages/messages.js';

/**
 * A result as a request shows it once cleared: the same call id, tool name and error flag, and for content a
 * placeholder written by the circuit alone. It names the tool, the call and the size removed, so the model
 * knows what it no longer sees and can call the tool again; nothing of the tool's output goes into it (that
 * output may be untrusted), and the tool name and call id only when they are plain identifiers the circuit
 * can vouch for (a catalogue tool's name; an id of letters, digits and `_-.:`), so a hostile model's odd
 * name or id is not echoed either.
 */
export function clearedResult(part: ToolResultPart, catalogue: Catalogue, position: number): ToolResultPart {
  return {
    type: 'tool_result',
    callId: part.callId,
    name: part.name,
    content: placeholderText(part, catalogue, position),
    isError: part.isError,
  };
}

/** The placeholder's text for a result (see {@link clearedResult}). */
export function placeholderText(part: ToolResultPart, catalogue: Catalogue, position: number): string {
  const name = IDENTIFIER.test(part.name) && catalogue.get(part.name) !== undefined ? `"${part.name}"` : 'a tool';
  const call = IDENTIFIER.test(part.callId)
    ? `call ${part.callId}`
    : `the call at position ${position + 1} of its turn`;
  return `[Result cleared to fit the context window: the output of ${name} for ${call} (${sizeOf(part.content)}) is no longer shown. Call the tool again if you need it.]`;
}

/**
 * A tool message with the given results cleared, cached per message in `cache` (one per run: what a message
 * clears is fixed by its run's policy), so every request after the clearing sends the very same object and an
 * adapter's conversion cache still hits.
 */
export function clearedMessage(
  message: ToolMessage,
  clear: (part: ToolResultPart) => boolean,
  catalogue: Catalogue,
  cache: WeakMap<ToolMessage, ToolMessage>,
): ToolMessage {
  let copy = cache.get(message);
  if (copy === undefined) {
    copy = {
      role: 'tool',
      content: message.content.map((part, position) => (clear(part) ? clearedResult(part, catalogue, position) : part)),
    };
    cache.set(message, copy);
  }
  return copy;
}

const IDENTIFIER = /^[A-Za-z0-9_.:-]{1,128}$/;

/** "20480 characters", "1 image and 2 files", "812 characters and 1 image": counts only. */
function sizeOf(content: ToolResultContent): string {
  let characters = 0;
  let images = 0;
  let files = 0;
  if (typeof content === 'string') characters = content.length;
  else {
    for (const part of content) {
      if (part.type === 'text') characters += part.text.length;
      else if (part.type === 'json') characters += jsonLength(part.value);
      else if (part.type === 'image') images += 1;
      else files += 1;
    }
  }
  const pieces: string[] = [];
  if (characters > 0 || (images === 0 && files === 0)) pieces.push(`${characters} characters`);
  if (images > 0) pieces.push(`${images} ${images === 1 ? 'image' : 'images'}`);
  if (files > 0) pieces.push(`${files} ${files === 1 ? 'file' : 'files'}`);
  return pieces.join(' and ');
}

function jsonLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return 0;
  }
}
