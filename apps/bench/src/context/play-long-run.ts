import {
  type ContextPolicy,
  type ContextReport,
  createCatalogue,
  createSession,
  defineTool,
  everySession,
  InMemoryJournal,
  type JournalEntry,
  type LoopResult,
  runLoop,
} from '@toolcircuit/core';
import { type ConformanceTurn, conformanceWireOf, countedUsage, startReplayServer } from '@toolcircuit/testing';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { SdkBackend } from '../wire/sdk-backends.js';
import { wireCassette } from '../wire/wire-cassette.js';
import { archivePage, LONG_RUN_RESULT_CHARS } from './long-run-pages.js';

export const LONG_RUN_TURNS = 200;
export const LONG_RUN_BUDGET = 100_000;

/** One long run over one backend, as the replay server saw its requests. */
export interface LongRun {
  readonly backend: string;
  readonly result: LoopResult;
  readonly journal: readonly JournalEntry[];
  /** Each request's body, in bytes, as it came over the wire. */
  readonly requestBytes: readonly number[];
  /** Each request's body in o200k_base tokens, counted by the replay server and reported as the answer's usage. */
  readonly requestTokens: readonly number[];
  /** What the policy reported for each request (its estimates, results cleared). */
  readonly reports: readonly ContextReport[];
  /** This process's CPU time for the whole run (the adapter, its SDK, the server and the tokenizer included). */
  readonly cpuMs: number;
  readonly wallMs: number;
}

/** The tool of the long run: a query whose every answer is a 20 KB page of real text and JSON. */
export function longRunCatalogue(resultChars = LONG_RUN_RESULT_CHARS) {
  return createCatalogue([
    defineTool({
      name: 'query_archive',
      description: 'Returns one page of the archive (about 20 KB of JSON lines).',
      inputSchema: { type: 'object', properties: { page: { type: 'integer' } }, required: ['page'] },
      right: everySession,
      run: ({ page }) => archivePage(page, resultChars),
    }),
  ]);
}

/**
 * `turns` turns of one call each, each answered with a 20 KB page, then the answer, through the backend's
 * adapter and official SDK against the replay server (synthetic responses made by the conformance wires). The
 * server counts each request's tokens with OpenAI's o200k_base tokenizer over the JSON body it received (the
 * body's keys and escapes included: more than a provider counts of the prompt it renders) and reports that
 * count as the answer's input tokens, as a provider reports its own count.
 */
export async function playLongRun(
  backend: SdkBackend,
  options: { readonly turns?: number; readonly policy?: ContextPolicy; readonly resultChars?: number } = {},
): Promise<LongRun> {
  const turns = options.turns ?? LONG_RUN_TURNS;
  const policy = options.policy ?? { maxTokens: LONG_RUN_BUDGET };
  const wire = conformanceWireOf(backend.protocol);
  const script: ConformanceTurn[] = [
    ...Array.from({ length: turns }, (_, index) => ({
      calls: [{ name: 'query_archive', arguments: { page: index + 1 } }],
    })),
    { text: 'Every page is read.', calls: [] },
  ];
  const cassette = wireCassette(backend.protocol, 'long_run', script, 'Long run of apps/bench/src/context');
  const requestTokens: number[] = [];
  const server = await startReplayServer(cassette, {
    respond: countedUsage((received) => {
      const tokens = countTokens(JSON.stringify(received.body));
      requestTokens.push(tokens);
      return tokens;
    }),
  });
  const reports: ContextReport[] = [];
  try {
    const journal = new InMemoryJournal();
    const cpu = process.cpuUsage();
    const wall = performance.now();
    const result = await runLoop({
      model: backend.createModel(server.url, wire.model),
      catalogue: longRunCatalogue(options.resultChars),
      session: createSession({ id: 'bench', humanId: 'bench', rights: [] }),
      messages: [{ role: 'user', content: `Read the archive's ${turns} pages, one at a time, and tell me when done.` }],
      journal,
      maxTurns: turns + 1,
      contextPolicy: {
        ...policy,
        onRequest: (report) => {
          reports.push(report);
          policy.onRequest?.(report);
        },
      },
    });
    const used = process.cpuUsage(cpu);
    const wallMs = performance.now() - wall;
    server.assertDone();
    return {
      backend: backend.label,
      result,
      journal: journal.entries,
      requestBytes: server.received.map((request) => request.bodyBytes),
      requestTokens,
      reports,
      cpuMs: (used.user + used.system) / 1000,
      wallMs,
    };
  } finally {
    await server.close();
  }
}
