import type { OutputStream } from '../cli-io.js';
import { formatCallLine, inlineJson } from './format-call-line.js';
import type { RunSummary, TraceEvent } from './trace-event.js';

/** Where run and demo send their trace: human lines, or JSON lines for machines. */
export interface TraceWriter {
  /** Streamed model text, as it arrives. */
  textDelta(turn: number, text: string): void;
  event(event: TraceEvent): void;
  summary(summary: RunSummary, extra?: Readonly<Record<string, unknown>>): void;
  /** Free-form information (human mode only; JSON mode prints it as a `note` event). */
  note(text: string): void;
}

/** Human trace: `turn 1  model  …`, `turn 1  call  …`, one step per line, indented under a heading. */
export class HumanTraceWriter implements TraceWriter {
  readonly #out: OutputStream;
  readonly #indent: string;
  #streamingTurn: number | undefined;
  readonly #streamedTurns = new Set<number>();

  constructor(out: OutputStream, indent = '') {
    this.#out = out;
    this.#indent = indent;
  }

  textDelta(turn: number, text: string): void {
    if (this.#streamingTurn !== turn) {
      this.#endStream();
      this.#out.write(`${this.#indent}turn ${turn}  model  `);
      this.#streamingTurn = turn;
      this.#streamedTurns.add(turn);
    }
    this.#out.write(text.replaceAll('\n', `\n${this.#indent}              `));
  }

  event(event: TraceEvent): void {
    if (event.type === 'text' && this.#streamedTurns.has(event.turn)) {
      this.#endStream();
      return;
    }
    this.#endStream();
    this.#out.write(`${this.#indent}${this.#line(event)}\n`);
  }

  summary(summary: RunSummary): void {
    this.#endStream();
    this.#out.write(
      `${this.#indent}tokens   ${summary.tokens.input ?? '?'} in / ${summary.tokens.output ?? '?'} out\n`,
    );
  }

  note(text: string): void {
    this.#endStream();
    this.#out.write(`${this.#indent}${text}\n`);
  }

  #endStream(): void {
    if (this.#streamingTurn === undefined) return;
    this.#out.write('\n');
    this.#streamingTurn = undefined;
  }

  #line(event: TraceEvent): string {
    switch (event.type) {
      case 'text':
        return `turn ${event.turn}  model  ${event.text.replaceAll('\n', '\n              ')}`;
      case 'call':
        return `turn ${event.turn}  call   ${formatCallLine(event)}`;
      case 'confirmation':
        return `turn ${event.turn}  human  ${event.by} ${event.approved ? 'approves' : 'declines'} ${event.tool} ${inlineJson(event.input)} (digest ${event.digest})`;
      case 'end': {
        const refusals = Object.entries(event.refusals)
          .map(([reason, count]) => `${count} ${reason}`)
          .join(', ');
        return (
          `end      ${event.status} · ${event.turns} turn(s) · ${event.calls} call(s): ${event.executed} executed, ` +
          `${event.refused} refused${refusals === '' ? '' : ` (${refusals})`}, ${event.pending} pending`
        );
      }
    }
  }
}

/** `--json`: one JSON object per line; `text-delta` events carry streamed text, `summary` closes a run. */
export class JsonTraceWriter implements TraceWriter {
  readonly #out: OutputStream;
  readonly #context: Readonly<Record<string, unknown>>;

  /** `context` fields are added to every line (the demo adds the backend). */
  constructor(out: OutputStream, context: Readonly<Record<string, unknown>> = {}) {
    this.#out = out;
    this.#context = context;
  }

  textDelta(turn: number, text: string): void {
    this.#write({ type: 'text-delta', turn, text });
  }

  event(event: TraceEvent): void {
    this.#write(event);
  }

  summary(summary: RunSummary, extra: Readonly<Record<string, unknown>> = {}): void {
    this.#write({ type: 'summary', ...summary, ...extra });
  }

  note(text: string): void {
    this.#write({ type: 'note', text });
  }

  #write(value: object): void {
    this.#out.write(`${JSON.stringify({ ...this.#context, ...value })}\n`);
  }
}
