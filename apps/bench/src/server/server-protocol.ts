/** What the server phase's parent asks its server process (`server-child.ts`) over IPC. */
export type ChildRequest =
  | { readonly type: 'http-begin' }
  | { readonly type: 'http-end'; readonly runIds: readonly string[] }
  | { readonly type: 'direct'; readonly runIds: readonly string[] }
  | { readonly type: 'close' };

/** One batch of runs, as the server process saw it. */
export interface BatchReport {
  /** This process's CPU time (user + system) over the batch, ms. */
  readonly cpuMs: number;
  /** The runs not completed with the model's final answer in the store. */
  readonly lost: readonly string[];
  /** Runs whose irreversible tool ran more than once. */
  readonly twice: number;
  /** When each run's tool started (epoch ms; NaN when it never did). */
  readonly toolStartedAt: Readonly<Record<string, number>>;
  /** The peer only: decision → tool start, ms, measured inside the process. */
  readonly latenciesMs: readonly number[];
  /** The process's peak resident set so far. */
  readonly maxRssBytes: number;
}

export type ChildReply =
  | { readonly type: 'ready'; readonly port: number }
  | { readonly type: 'ok' }
  | { readonly type: 'closed' }
  | { readonly type: 'batch'; readonly report: BatchReport }
  | { readonly type: 'error'; readonly message: string };
