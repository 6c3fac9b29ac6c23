import { hash } from 'node:crypto';
import { canonicalJson } from '@toolcircuit/core';

/** The chain digest of no item. */
export const EMPTY_CHAIN = '';

/** The chain digest after one more item: SHA-256 of the previous digest (fixed length) and the item's text. */
export function nextChain(previous: string, text: string): string {
  return hash('sha256', previous + text, 'hex');
}

/** A list as it stands: how many items, their canonical texts, and the chain digest after any prefix. */
export interface ListView {
  readonly count: number;
  /** The canonical JSON of item `index` (`index < count`). */
  text(index: number): string;
  /** The chain digest of the first `count` items (`count <= this.count`). */
  chainAt(count: number): string;
}

/**
 * A list that mostly grows at its end (a conversation's messages, its model turns, its untrusted sources),
 * followed item by item: each item is serialised and hashed once, when it first appears, so the digest of
 * the whole list costs what its new items cost. An item is the same one as before when it is the same
 * object; from the first one that is not, the list is followed again. Only for lists that never replace an
 * item while keeping a later one (the runner's turn mirror makes its lists so).
 */
export class ItemChain {
  #items: unknown[] = [];
  #texts: string[] = [];
  /** `#chains[n]`: the digest of the first n items. */
  #chains: string[] = [EMPTY_CHAIN];

  /** Follows `items`; returns the list as it stands now. */
  sync(items: readonly unknown[]): ListView {
    const known = Math.min(items.length, this.#items.length);
    // A list that grew at its end keeps its last known item: then the items before it are taken as the
    // same ones (the lists followed here never replace an earlier item and keep a later one), and a turn
    // costs its new items, not a comparison of the whole list.
    let same = known > 0 && known === this.#items.length && items[known - 1] === this.#items[known - 1] ? known : 0;
    while (same < known && items[same] === this.#items[same]) same += 1;
    if (same < this.#items.length) {
      // New arrays, not shortened ones: a view handed out before still reads the list it was made of.
      this.#items = this.#items.slice(0, same);
      this.#texts = this.#texts.slice(0, same);
      this.#chains = this.#chains.slice(0, same + 1);
    }
    for (let index = same; index < items.length; index += 1) {
      const text = canonicalJson(items[index]);
      this.#items.push(items[index]);
      this.#texts.push(text);
      this.#chains.push(nextChain(this.#chains[index] as string, text));
    }
    const texts = this.#texts;
    const chains = this.#chains;
    const count = items.length;
    // The arrays only grow (or are replaced): the view reads its own prefix of them.
    return { count, text: (index) => texts[index] as string, chainAt: (at) => chains[at] as string };
  }
}

/** A list's view made from scratch (a state the runner's turn mirror did not build). */
export function listViewOf(items: readonly unknown[]): ListView {
  return new ItemChain().sync(items);
}
