import {
  type Catalogue,
  everySession,
  type Journal,
  type JournalEntry,
  jsonDigest,
  type LoopHooks,
  type LoopOptions,
  type Message,
  type Model,
  type ModelTurn,
  oneModel,
  type StepContext,
  type StepSettings,
} from '@toolcircuit/core';
import { type InvocationObserver, now, type ToolSummary } from './loop-observer.js';
import { observedModel, type TurnCounter } from './observed-model.js';
import { responseIdOf } from './turn-metadata.js';

type ObservableOptions = Omit<LoopOptions, 'messages' | 'runId'>;

export interface ObservedRun {
  readonly invocation: InvocationObserver;
  /** The number the next model call's turn gets (1 for a new run, the paused turn + 1 after a resume). */
  readonly firstTurn: number;
  /** The conversation so far: tool errors in it count as retries of later calls of the same tool. */
  readonly history: readonly Message[];
  /** Turns already in the run (a resumed run's), for the provenance of the calls they asked for. */
  readonly earlierTurns: readonly ModelTurn[];
  /** The turn whose calls come back with the human's decision (`resumeLoop`). */
  readonly resumedTurn?: number;
}

/**
 * The loop's options with its model, hooks and journal observed. Nothing else changes: the application's
 * own hooks and journal still run, in the same order, and see the same values.
 */
export function observedOptions<O extends ObservableOptions>(options: O, run: ObservedRun): O {
  const { invocation } = run;
  const entries = new Map<string, JournalEntry[]>();
  const responseIds = new Map<number, string>();
  run.earlierTurns.forEach((turn, index) => {
    const id = responseIdOf(turn);
    if (id !== undefined) responseIds.set(index + 1, id);
  });
  const errorsByTool = toolErrorsIn(run.history);
  const journal = options.journal === undefined ? undefined : observedJournal(options.journal, entries);
  const hooks: LoopHooks = {
    ...options.hooks,
    onTurn: (event) => {
      const id = responseIdOf(event.modelTurn);
      if (id !== undefined) responseIds.set(event.turn, id);
      return options.hooks?.onTurn?.(event);
    },
    onCall: (event) => {
      const endedAt = now();
      const key = entryKey(event.turn, event.call.id);
      const entry = entries.get(key)?.shift();
      const tool = typeof event.call.name === 'string' ? event.call.name : String(event.call.name);
      const retries = errorsByTool.get(tool) ?? 0;
      if (event.result.isError && event.verdict.kind !== 'awaiting_confirmation') errorsByTool.set(tool, retries + 1);
      invocation.callSettled({
        event,
        startedAt: endedAt - event.durationMs,
        endedAt,
        definition: options.catalogue.get(tool)?.definition,
        entry,
        retries,
        resumed: run.resumedTurn === event.turn && event.verdict.kind !== 'awaiting_confirmation',
        responseId: responseIds.get(event.turn),
      });
      return options.hooks?.onCall?.(event);
    },
  };
  const turns: TurnCounter = { next: run.firstTurn };
  // A fallback list is observed as the one model the loop asks (each turn says which of the list answered).
  const asked = oneModel(options.model, options.retry);
  const model = observedModel(asked, invocation, turns);
  const prepareStep = options.prepareStep;
  // A step's own model is observed too, on the same turn count; one wrapper per model.
  const stepModels = new Map<Model, Model>([[asked, model]]);
  const observeStep = (settings: StepSettings | undefined): StepSettings | undefined => {
    const chosen = settings?.model;
    if (chosen === undefined) return settings;
    let observed = stepModels.get(chosen);
    if (observed === undefined) {
      observed = observedModel(chosen, invocation, turns);
      stepModels.set(chosen, observed);
    }
    return { ...settings, model: observed };
  };
  return {
    ...options,
    model,
    hooks,
    ...(journal === undefined ? {} : { journal }),
    ...(prepareStep === undefined
      ? {}
      : {
          prepareStep: (context: StepContext) => {
            const settings = prepareStep(context);
            return isPromise(settings) ? settings.then(observeStep) : observeStep(settings);
          },
        }),
  };
}

/** The catalogue's tools as traces describe them. */
export function toolSummaries(catalogue: Catalogue): ToolSummary[] {
  return catalogue.names.flatMap((name) => {
    const definition = catalogue.get(name)?.definition;
    if (definition === undefined) return [];
    return [
      {
        name,
        description: definition.description,
        right: definition.right === everySession ? null : definition.right,
        irreversible: definition.irreversible,
      },
    ];
  });
}

/** SHA-256 of the canonical JSON of a journal entry as the executor appended it (its `seq` is the store's). */
export function entryDigestOf(entry: JournalEntry): string {
  const { seq: _seq, ...appended } = entry;
  return jsonDigest(appended);
}

function observedJournal(inner: Journal, entries: Map<string, JournalEntry[]>): Journal {
  return {
    append(entry, detail) {
      const key = entryKey(entry.turn, entry.callId);
      const queue = entries.get(key);
      if (queue === undefined) entries.set(key, [entry]);
      else queue.push(entry);
      return inner.append(entry, detail);
    },
    ...(inner.note === undefined ? {} : { note: (note) => inner.note?.(note) }),
  };
}

function entryKey(turn: number, callId: string): string {
  return `${turn}\u0000${callId}`;
}

function toolErrorsIn(messages: readonly Message[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.isError) counts.set(part.name, (counts.get(part.name) ?? 0) + 1);
    }
  }
  return counts;
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | undefined)?.then === 'function';
}
