import type { OutputStream } from '../cli-io.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * A one-line spinner with elapsed time on stderr, while waiting for the model or the tools. Only on a
 * terminal: in a pipe or a CI log it would be noise (and carriage returns do not erase there).
 */
export class Progress {
  readonly #out: OutputStream;
  readonly #enabled: boolean;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(out: OutputStream, enabled = out.isTTY === true) {
    this.#out = out;
    this.#enabled = enabled;
  }

  start(label: string): void {
    if (!this.#enabled) return;
    this.stop();
    const started = Date.now();
    let frame = 0;
    const draw = () => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      this.#out.write(`\r${FRAMES[frame % FRAMES.length] ?? ''} ${label} ${seconds}s\u001b[K`);
      frame += 1;
    };
    draw();
    this.#timer = setInterval(draw, 100);
    // Never the reason the process stays alive.
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer === undefined) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#out.write('\r\u001b[K');
  }
}
