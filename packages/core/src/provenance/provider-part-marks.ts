import type { ModelTurn } from '../messages/model-turn.js';
import { type UntrustedContent, untrustedContentOf } from '../messages/untrusted-content.js';

/**
 * The turn with each of its provider parts (items the adapter did not understand, kept whole) marked as
 * untrusted content where it stood. An adapter cannot say whether a provider filled an item it does not
 * know with outside content (a new hosted tool's result looks just like a new kind of reasoning), so core
 * treats every such item as if it did: an unneeded mark costs a confirmation, a missing one would let a call
 * made after an injected page run unasked. Returns the same turn when it holds no provider part (the usual
 * case: nothing is allocated).
 */
export function withProviderPartMarks(turn: ModelTurn): ModelTurn {
  let marks: UntrustedContent[] | undefined;
  const { content } = turn;
  for (let index = 0; index < content.length; index += 1) {
    const part = content[index];
    if (part?.type !== 'provider') continue;
    marks ??= [];
    marks.push(
      untrustedContentOf({
        at: index,
        kind: part.kind,
        id: providerPartId(part.data, part.provider, part.kind, index),
        value: part.data,
        skipKeys: OPAQUE_KEYS,
      }),
    );
  }
  if (marks === undefined) return turn;
  return { ...turn, untrustedContent: [...(turn.untrustedContent ?? []), ...marks] };
}

/** The item's own id when it has one, else where it stood: what the human is shown as its source. */
function providerPartId(
  data: Readonly<Record<string, unknown>>,
  provider: string,
  kind: string,
  index: number,
): string {
  const id = data['id'];
  return typeof id === 'string' && id !== '' ? id : `${provider}:${kind}@${index}`;
}

/** Tags, ids, signatures and encrypted payloads: nothing anyone reads. */
const OPAQUE_KEYS: readonly string[] = [
  'type',
  'id',
  'status',
  'signature',
  'thoughtSignature',
  'encrypted_content',
  'encryptedContent',
  'data',
];
