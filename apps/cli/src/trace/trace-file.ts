import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { LoopTracing, TraceRecord } from '@toolcircuit/otel';

/**
 * The trace file `--trace <file>` asks for: every run's records (JSON lines, `@toolcircuit/otel`'s
 * format), written once at the end so a file is never left half-written by a run that is still going.
 */
export class TraceFile {
  readonly path: string;
  readonly #records: TraceRecord[] = [];

  constructor(path: string, cwd: string, title: string) {
    this.path = resolve(cwd, path);
    this.#records.push({ type: 'trace', version: 1, producer: '@toolcircuit/cli', at: Date.now(), title });
  }

  /**
   * The loop's entry points recording into this file, labelled (e.g. with the backend's name). Content is
   * recorded: the demo's data is synthetic and the viewer shows it.
   */
  async loop(label: string): Promise<LoopTracing> {
    // Loaded on use: only `--trace` needs it, and every command starts faster without it.
    const { createLoopTracing } = await import('@toolcircuit/otel');
    return createLoopTracing({
      spans: false,
      captureContent: true,
      label,
      traceFile: (record) => this.#records.push(record),
    });
  }

  async save(): Promise<void> {
    const { traceRecordLine } = await import('@toolcircuit/otel');
    await writeFile(this.path, this.#records.map(traceRecordLine).join(''), 'utf8');
  }
}
