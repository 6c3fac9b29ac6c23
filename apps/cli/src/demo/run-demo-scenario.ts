import { InMemoryJournal, type JournalEntry, type Model, type ModelTurn, type RunCost } from '@toolcircuit/core';
import { type DriveRunOptions, driveRun } from '../run/drive-run.js';
import type { RunSummary, TraceEvent } from '../trace/trace-event.js';
import type { TraceWriter } from '../trace/trace-writer.js';
import { createDemoCatalogue, createDemoSession, DEMO_HUMAN, DEMO_PROMPT, DEMO_SYSTEM } from './demo-catalogue.js';

export interface DemoScenarioOutcome {
  readonly trace: readonly TraceEvent[];
  readonly summary: RunSummary;
  /** How many times `cloturer_dossier` really ran: 1 when the pause, approval and resume worked. */
  readonly closeRuns: number;
  readonly journal: readonly JournalEntry[];
  /** The run's model turns, the resumed part included. */
  readonly turns: readonly ModelTurn[];
  /** What the run cost (`LoopResult.cost`), at the shipped price table. */
  readonly cost: RunCost;
  /** What the scenario was meant to show and did not (empty when all of it happened). */
  readonly missing: readonly string[];
}

/**
 * The demo's scenario on one model: the prompt, the demo catalogue and session, every irreversible call
 * paused and then approved by the demo's human, a fresh store each time. Streams the trace to `writer`.
 */
export async function runDemoScenario(
  model: Model,
  writer: TraceWriter,
  signal?: AbortSignal,
  loop?: DriveRunOptions['loop'],
): Promise<DemoScenarioOutcome> {
  const { catalogue, store } = createDemoCatalogue();
  const journal = new InMemoryJournal();
  const trace: TraceEvent[] = [];
  const { summary, result } = await driveRun({
    model,
    catalogue,
    session: createDemoSession(),
    system: DEMO_SYSTEM,
    messages: [{ role: 'user', content: DEMO_PROMPT }],
    journal,
    // One call at a time: verdicts then arrive in call order, so traces compare step by step.
    concurrency: 1,
    confirmation: 'pause',
    // The demo's human reads the pending call and approves it; a real app would ask (see `toolcircuit run`).
    confirm: async () => ({ approved: true, by: DEMO_HUMAN }),
    emit: (event) => {
      trace.push(event);
      writer.event(event);
    },
    ...(signal === undefined ? {} : { signal }),
    ...(loop === undefined ? {} : { loop }),
  });
  writer.summary(summary);
  const closeRuns = store.runsOf('cloturer_dossier');
  const missing: string[] = [];
  const called = (reason: string) => trace.some((event) => event.type === 'call' && event.reason === reason);
  if (!called('invalid_input')) missing.push('a call refused by the schema');
  if (!called('missing_right')) missing.push('a call refused for a missing right');
  if (!trace.some((event) => event.type === 'call' && event.verdict === 'awaiting_confirmation')) {
    missing.push('an irreversible call paused for confirmation');
  }
  if (!trace.some((event) => event.type === 'confirmation' && event.approved)) missing.push("the human's approval");
  if (closeRuns !== 1) missing.push(`cloturer_dossier running exactly once (it ran ${closeRuns} time(s))`);
  if (summary.status !== 'completed') missing.push(`a completed run (status ${summary.status})`);
  return { trace, summary, closeRuns, journal: journal.entries, turns: result.turns, cost: result.cost, missing };
}
