import { buildRuns } from './build-runs.js';
import { journalItemToRecords } from './journal-records.js';
import type { RunView } from './run-view.js';
import type { TraceRecord } from './trace-types.js';

const TRACE_TYPES = new Set(['trace', 'invocation', 'model-call', 'call', 'pause', 'decision', 'invocation-end']);

export interface ParsedTrace {
  readonly runs: RunView[];
  /** `trace`: a toolcircuit trace file; `journal`: a journal export (entries or store rows). */
  readonly format: 'trace' | 'journal' | 'empty';
  readonly title?: string;
  /** Lines that could not be read, with why; the rest of the file is still shown. */
  readonly problems: string[];
}

/**
 * Reads a trace file (JSON lines of trace records) or a journal export: a JSON array or JSON lines of core
 * journal entries (`InMemoryJournal.entries`) or of store rows (`{ seq, hash, record }`). A bad line is
 * reported and skipped, never fatal.
 */
export function parseTraceText(text: string): ParsedTrace {
  const problems: string[] = [];
  const items = readItems(text, problems);
  const records: TraceRecord[] = [];
  let title: string | undefined;
  let traceItems = 0;
  let journalItems = 0;
  items.forEach(({ value, line }) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      problems.push(`line ${line}: not a JSON object`);
      return;
    }
    const object = value as Record<string, unknown>;
    if (typeof object['type'] === 'string' && TRACE_TYPES.has(object['type'])) {
      traceItems += 1;
      if (object['type'] === 'trace') {
        if (typeof object['title'] === 'string') title = object['title'];
        return;
      }
      records.push(object as unknown as TraceRecord);
      return;
    }
    const converted = journalItemToRecords(object);
    if (converted === undefined) {
      problems.push(`line ${line}: neither a trace record nor a journal entry`);
      return;
    }
    journalItems += 1;
    records.push(...converted);
  });
  const format = traceItems === 0 && journalItems === 0 ? 'empty' : traceItems >= journalItems ? 'trace' : 'journal';
  return {
    runs: buildRuns(records, format === 'journal' ? 'journal' : 'trace'),
    format,
    ...(title === undefined ? {} : { title }),
    problems,
  };
}

function readItems(text: string, problems: string[]): { value: unknown; line: number }[] {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[')) {
    try {
      const array = JSON.parse(trimmed) as unknown;
      if (Array.isArray(array)) return array.map((value, index) => ({ value, line: index + 1 }));
    } catch (error) {
      problems.push(`not valid JSON: ${(error as Error).message}`);
      return [];
    }
  }
  const items: { value: unknown; line: number }[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '') return;
    try {
      items.push({ value: JSON.parse(line) as unknown, line: index + 1 });
    } catch {
      problems.push(`line ${index + 1}: not valid JSON`);
    }
  });
  return items;
}
