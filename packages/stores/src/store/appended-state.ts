import { hash } from 'node:crypto';
import { canonicalJson } from '@toolcircuit/core';
import type { StartedTurn } from './durable-store.js';
import { EMPTY_CHAIN, type ListView, listViewOf, nextChain } from './item-chain.js';
import type { StateItemRow } from './store-backend.js';
import { markStoredAsDigested } from './stored-state.js';

/**
 * A started turn stored append-only. The lists that grow with the conversation (its messages, model turns
 * and untrusted sources) are rows of their own, one per item, written once; the run's state column holds
 * the rest of the state (the head) with each list's length and chain digest, and the state's digest is
 * the head's SHA-256. What a turn writes is its new items and the head: it does not grow with the run.
 *
 * The head's text starts with `{"startedHead":`; a state column in any other layout is a whole state.
 */
export const STARTED_HEAD_PREFIX = '{"startedHead":';

export type ListName = 'messages' | 'turns' | 'sources';
const LIST_NAMES: readonly ListName[] = ['messages', 'turns', 'sources'];

/** A started turn's lists; `sources` absent when the state has no provenance. */
export interface StateLists {
  readonly messages: ListView;
  readonly turns: ListView;
  readonly sources?: ListView;
}

/** What the item rows of a run hold: per list, its length and chain digest (the run's `items_json`). */
type StoredLists = Partial<Record<ListName, readonly [number, string]>>;

const remembered = new WeakMap<StartedTurn, StateLists>();

/** Records the lists of a state its builder follows item by item (the runner's turn mirror). */
export function rememberLists(state: StartedTurn, lists: StateLists): void {
  remembered.set(state, lists);
}

function listsOf(started: StartedTurn): StateLists {
  const known = remembered.get(started);
  if (known !== undefined) return known;
  const sources = started.provenance?.sources;
  return {
    messages: listViewOf(started.messages),
    turns: listViewOf(started.turns),
    ...(sources === undefined ? {} : { sources: listViewOf(sources) }),
  };
}

/** What storing a started turn writes: the head, its digest, and the item rows the run lacks. */
export interface AppendedWrite {
  readonly pausedJson: string;
  readonly pausedDigest: string;
  /** The run's new `items_json`. */
  readonly itemsJson: string;
  /** Lists whose rows are replaced (deleted first): the stored ones are not a prefix of the new ones. */
  readonly replace: readonly ListName[];
  readonly rows: readonly StateItemRow[];
}

/**
 * How `started` is stored over the item rows the run has (`itemsJson`): a list whose stored rows are a
 * prefix of the new one (same length-prefix digest) gets only its new items; any other is written whole.
 */
export function appendedStarted(runId: string, started: StartedTurn, itemsJson: string | null): AppendedWrite {
  const lists = listsOf(started);
  const stored = (itemsJson === null ? {} : JSON.parse(itemsJson)) as StoredLists;
  const rows: StateItemRow[] = [];
  const replace: ListName[] = [];
  const now: Record<string, readonly [number, string]> = {};
  for (const part of LIST_NAMES) {
    const view = lists[part];
    const [count, chain] = stored[part] ?? [0, EMPTY_CHAIN];
    if (view === undefined) {
      // Kept as they are: a later state with the list appends to them.
      if (stored[part] !== undefined) now[part] = [count, chain];
      continue;
    }
    const extends_ = count <= view.count && view.chainAt(count) === chain;
    const from = extends_ ? count : 0;
    if (!extends_ && count > 0) replace.push(part);
    for (let idx = from; idx < view.count; idx += 1) rows.push({ runId, part, idx, itemJson: view.text(idx) });
    now[part] = [view.count, view.chainAt(view.count)];
  }
  const { messages: _messages, turns: _turns, provenance, ...rest } = started;
  const heads: Record<string, readonly [number, string]> = {
    messages: [lists.messages.count, lists.messages.chainAt(lists.messages.count)],
    turns: [lists.turns.count, lists.turns.chainAt(lists.turns.count)],
  };
  if (provenance !== undefined && lists.sources !== undefined) {
    heads.sources = [lists.sources.count, lists.sources.chainAt(lists.sources.count)];
  }
  const pausedJson = `${STARTED_HEAD_PREFIX}${canonicalJson({ ...rest, lists: heads })}}`;
  return { pausedJson, pausedDigest: sha256(pausedJson), itemsJson: canonicalJson(now), replace, rows };
}

/**
 * The started turn a head and the run's item rows hold, with its keys in canonical order (as parsing its
 * whole canonical text gives). When every list matches its chain digest and the head its digest, the
 * state is marked as matching (see `stored-state.ts`); otherwise it is returned unmarked, and the runner,
 * which checks it against the digest the long way, refuses it.
 */
export function startedOfHead(pausedJson: string, digest: string | null, items: readonly StateItemRow[]): StartedTurn {
  const { lists, ...rest } = (JSON.parse(pausedJson.slice(STARTED_HEAD_PREFIX.length, -1)) ?? {}) as Record<
    string,
    unknown
  > & { lists?: StoredLists };
  let intact = digest !== null && sha256(pausedJson) === digest;
  const texts = new Map<ListName, string[]>();
  for (const row of items) {
    let list = texts.get(row.part);
    if (list === undefined) {
      list = [];
      texts.set(row.part, list);
    }
    list[row.idx] = row.itemJson;
  }
  const read = (part: ListName): unknown[] => {
    const [count, chain] = lists?.[part] ?? [0, EMPTY_CHAIN];
    const list = texts.get(part) ?? [];
    let at = EMPTY_CHAIN;
    const out: unknown[] = [];
    for (let idx = 0; idx < count; idx += 1) {
      const text = list[idx];
      if (text === undefined) {
        intact = false;
        break;
      }
      at = nextChain(at, text);
      out.push(JSON.parse(text));
    }
    if (at !== chain) intact = false;
    return out;
  };
  const whole: Record<string, unknown> = {
    ...rest,
    messages: read('messages'),
    turns: read('turns'),
    ...(lists?.sources === undefined ? {} : { provenance: { sources: read('sources') } }),
  };
  // Keys in UTF-16 order, as canonical JSON writes them (and as parsing the whole text would give).
  const state = Object.fromEntries(
    Object.keys(whole)
      .sort()
      .map((key) => [key, whole[key]]),
  ) as unknown as StartedTurn;
  if (intact) markStoredAsDigested(state);
  return state;
}

function sha256(text: string): string {
  return hash('sha256', text, 'hex');
}
