import { hash } from 'node:crypto';
import type { ScriptedToolCall } from '../scenario/scenario.js';

/** One checkable entry: what the model asked, digested, and the digest of what it was answered. */
export interface FloorJournalEntry {
  readonly seq: number;
  readonly at: string;
  readonly turn: number;
  readonly callId: string;
  readonly toolName: string;
  readonly input: unknown;
  readonly inputDigest: string;
  readonly verdict: 'executed' | 'refused';
  readonly durationMs: number;
  readonly outputDigest?: string;
}

/**
 * The least a hand-written loop does to keep a journal an audit can check: per call, the input's
 * canonical JSON (keys sorted) kept as a private copy with its SHA-256, the SHA-256 of the answer's
 * canonical JSON, and an entry appended to a list. It is the peer of toolcircuit's `InMemoryJournal`,
 * which does the same and more (sessions, provenance, media); what it costs over the plain floor is the
 * part of a journal's cost no implementation avoids.
 */
export class FloorJournal {
  readonly entries: FloorJournalEntry[] = [];

  append(call: ScriptedToolCall, turn: number, input: unknown, started: number, output: string | undefined): void {
    const sorted = sortedCopy(input);
    const entry: FloorJournalEntry = {
      seq: this.entries.length + 1,
      at: new Date().toISOString(),
      turn,
      callId: call.id,
      toolName: call.toolName,
      input: sorted,
      inputDigest: sha256(JSON.stringify(sorted)),
      verdict: output === undefined ? 'refused' : 'executed',
      durationMs: performance.now() - started,
      ...(output === undefined ? {} : { outputDigest: sha256(JSON.stringify([{ text: output, type: 'text' }])) }),
    };
    this.entries.push(entry);
  }
}

/** The one-shot `hash`, as core uses: about 3× cheaper than a `Hash` object per call. */
function sha256(text: string): string {
  return hash('sha256', text, 'hex');
}

/** A copy of plain JSON with every object's keys in sorted order: `JSON.stringify` of it is canonical. */
function sortedCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedCopy);
  if (value === null || typeof value !== 'object') return value;
  const source = value as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(source).sort()) copy[key] = sortedCopy(source[key]);
  return copy;
}
