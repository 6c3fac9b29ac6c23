import { jsonDigest } from '../json/canonical-json.js';
import type { Message, ToolResultPart } from '../messages/messages.js';
import type { UntrustedContent } from '../messages/untrusted-content.js';
import { keptContentOf, searchableText } from './searchable-text.js';
import type { TaintSource } from './taint-source.js';

/** Results answered in a turn that is not in the conversation yet: a paused turn's computed results. */
export interface OpenReply {
  readonly turn: number;
  readonly results: readonly ToolResultPart[];
}

/**
 * The untrusted sources a stored state (paused, interrupted) lists, or `undefined` when it lists none (a
 * state written without provenance, or one whose list is not a list): the caller then counts every result of
 * its conversation as untrusted, never as clean.
 */
export function storedSources(provenance: unknown): readonly unknown[] | undefined {
  const sources = (provenance as { readonly sources?: unknown } | null | undefined)?.sources;
  return Array.isArray(sources) ? sources : undefined;
}

/**
 * A stored state's sources, checked against what its conversation says. What can be re-derived is: a source
 * whose result is in the conversation (same call, tool and output digest) takes the turn that result was
 * answered in when that is earlier than the stored one (a source moved to a later turn would stop gating the
 * calls made in between), and its text is made again from that result (the text argument values are flagged
 * against). Hosted content (a provider's own tool result inside the model's response) is found the same way
 * in the marks of the conversation's assistant messages: its turn, its text, and the calls of that message
 * made after it (which it `precedes`, so a paused call of its own turn stays judged with it). A source not
 * found there is kept as stored, and a malformed field is read the way that gates most (turn 0, no text). What cannot be re-derived, a source removed from the list, only the state's seal
 * catches: a refused call's result is in the conversation as well, and does not taint.
 *
 * `turnCount` is the number of model turns of the run (`turns.length`): its assistant messages are the last
 * `turnCount` of the conversation, the ones before are the conversation it started from (turn 0).
 */
export function restoredSources(
  sources: readonly unknown[],
  messages: readonly Message[],
  turnCount: number,
  open?: OpenReply,
): TaintSource[] {
  const answered = answeredTurns(messages, turnCount, open);
  let hosted: Map<string, HostedMark> | undefined;
  return sources.map((stored) => {
    const source = wellFormed(stored);
    if (source.hosted === true) {
      hosted ??= hostedMarks(messages, turnCount);
      return restoredHosted(source, hosted.get(hostedKey(source.toolName, source.callId)));
    }
    const found = answered.get(source.callId);
    if (found === undefined || found.part.name !== source.toolName) return source;
    // A result the data flow kept (a quarantined document, extracted values) was recorded by what it keeps.
    const content = keptContentOf(found.part);
    let digest: string;
    try {
      digest = jsonDigest(content);
    } catch {
      return source;
    }
    if (digest !== source.outputDigest) return source;
    return { ...source, turn: Math.min(source.turn, found.turn), text: searchableText(content) };
  });
}

interface HostedMark {
  readonly turn: number;
  readonly content: UntrustedContent;
  /** The calls of its message made after it. */
  readonly precedes: readonly string[];
}

function hostedKey(kind: string, id: string): string {
  return `${kind}\u0000${id}`;
}

/** A stored hosted source, re-derived from its mark when the conversation has it (same kind, id and text). */
function restoredHosted(source: TaintSource, mark: HostedMark | undefined): TaintSource {
  if (mark === undefined || typeof mark.content.text !== 'string') return source;
  let digest: string;
  try {
    digest = jsonDigest(mark.content.text);
  } catch {
    return source;
  }
  if (digest !== source.outputDigest) return source;
  const precedes = [...new Set([...(source.precedes ?? []), ...mark.precedes])];
  return {
    ...source,
    turn: Math.min(source.turn, mark.turn),
    text: mark.content.text,
    ...(precedes.length === 0 ? {} : { precedes }),
  };
}

/** Each hosted mark of the conversation's assistant messages, with its turn and the calls made after it. */
function hostedMarks(messages: readonly Message[], turnCount: number): Map<string, HostedMark> {
  let assistants = 0;
  for (const message of messages) if (message.role === 'assistant') assistants += 1;
  const before = assistants - turnCount;
  const marks = new Map<string, HostedMark>();
  let seen = 0;
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    seen += 1;
    const turn = Math.max(0, seen - before);
    const content = typeof message.content === 'string' ? [] : message.content;
    for (const mark of message.untrustedContent ?? []) {
      if (typeof mark?.kind !== 'string' || typeof mark.id !== 'string') continue;
      const from = Number.isInteger(mark.at) && mark.at > 0 ? mark.at : 0;
      const precedes: string[] = [];
      for (let index = from; index < content.length; index += 1) {
        const part = content[index];
        if (part?.type === 'tool_call') precedes.push(part.id);
      }
      const key = hostedKey(mark.kind, mark.id);
      const known = marks.get(key);
      if (known === undefined || turn < known.turn) marks.set(key, { turn, content: mark, precedes });
    }
  }
  return marks;
}

interface Answered {
  readonly turn: number;
  readonly part: ToolResultPart;
}

/** Each answered call's earliest turn: the run's turn of the assistant message its reply follows. */
function answeredTurns(messages: readonly Message[], turnCount: number, open: OpenReply | undefined) {
  let assistants = 0;
  for (const message of messages) if (message.role === 'assistant') assistants += 1;
  const before = assistants - turnCount;
  const answered = new Map<string, Answered>();
  const note = (part: ToolResultPart, turn: number) => {
    const known = answered.get(part.callId);
    if (known === undefined || turn < known.turn) answered.set(part.callId, { turn, part });
  };
  let seen = 0;
  let turn = 0;
  for (const message of messages) {
    if (message.role === 'assistant') {
      seen += 1;
      turn = Math.max(0, seen - before);
    } else if (message.role === 'tool') {
      for (const part of message.content) note(part, turn);
    }
  }
  for (const part of open?.results ?? []) note(part, Math.max(0, open?.turn ?? 0));
  return answered;
}

function wellFormed(stored: unknown): TaintSource {
  const source = (typeof stored === 'object' && stored !== null ? stored : {}) as Partial<
    Record<keyof TaintSource, unknown>
  >;
  const turn = source.turn;
  const made: TaintSource = {
    turn: typeof turn === 'number' && Number.isInteger(turn) && turn >= 0 ? turn : 0,
    callId: typeof source.callId === 'string' ? source.callId : '',
    toolName: typeof source.toolName === 'string' ? source.toolName : '',
    outputDigest: typeof source.outputDigest === 'string' ? source.outputDigest : '',
    text: typeof source.text === 'string' ? source.text : '',
  };
  if (source.hosted !== true) return made;
  // Hosted content keeps what makes it judge the calls of its own turn; a malformed list keeps what it can.
  const precedes = Array.isArray(source.precedes)
    ? source.precedes.filter((id): id is string => typeof id === 'string')
    : [];
  return { ...made, hosted: true, ...(precedes.length === 0 ? {} : { precedes }) };
}
