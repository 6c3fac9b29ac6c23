import type { Message, ToolMessage, ToolResultPart } from '../messages/messages.js';

/**
 * The conversation as the model is sent it: without what the data-flow options kept with results (a
 * quarantined document, extracted or vouched values). Adapters send only `content`, but a model the
 * application wrote may send whole messages, and the document must not reach it by that road either. Copies
 * are cached per message, so each turn's request reuses the same objects (and an adapter's conversion cache
 * still hits); messages that keep nothing are passed as they are.
 */
export function withoutKept(messages: readonly Message[]): Message[] {
  return messages.map((message) => {
    if (message.role !== 'tool' || !message.content.some(keepsSomething)) return message;
    let bare = cache.get(message);
    if (bare === undefined) {
      bare = { ...message, content: message.content.map(bareResult) };
      cache.set(message, bare);
    }
    return bare;
  });
}

const cache = new WeakMap<ToolMessage, ToolMessage>();

function keepsSomething(part: ToolResultPart): boolean {
  return part.dataFlow !== undefined;
}

function bareResult(part: ToolResultPart): ToolResultPart {
  if (part.dataFlow === undefined) return part;
  const { dataFlow: _kept, ...bare } = part;
  return bare;
}
