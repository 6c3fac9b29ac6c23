import { createInterface, type Interface } from 'node:readline';
import type { OutputStream } from '../cli-io.js';

/**
 * Asks questions on the terminal, one readline for the whole run: typed-ahead answers stay queued for
 * the next question instead of being lost with a closed interface. The question goes to stderr so stdout
 * stays the trace.
 */
export class TerminalPrompter {
  readonly #input: NodeJS.ReadableStream;
  readonly #out: OutputStream;
  #lines: Interface | undefined;
  readonly #queued: string[] = [];
  readonly #waiting: ((line: string | undefined) => void)[] = [];
  #closed = false;

  constructor(input: NodeJS.ReadableStream, out: OutputStream) {
    this.#input = input;
    this.#out = out;
  }

  /** The next line typed, or `undefined` at end of input. */
  ask(question: string): Promise<string | undefined> {
    this.#out.write(question);
    this.#open();
    const line = this.#queued.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.#closed) return Promise.resolve(undefined);
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  close(): void {
    this.#lines?.close();
  }

  #open(): void {
    if (this.#lines !== undefined) return;
    this.#lines = createInterface({ input: this.#input, terminal: false });
    this.#lines.on('line', (line) => {
      const waiter = this.#waiting.shift();
      if (waiter === undefined) this.#queued.push(line);
      else waiter(line);
    });
    this.#lines.on('close', () => {
      this.#closed = true;
      for (const waiter of this.#waiting.splice(0)) waiter(undefined);
    });
  }
}
