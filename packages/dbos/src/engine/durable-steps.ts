/**
 * The one thing a durable-execution engine must give the circuit: a step that runs its function once per
 * run and, when the run is replayed after a crash, returns what the first execution recorded instead of
 * running it again. DBOS (`DBOS.runStep`), Temporal (an activity) and Restate (`ctx.run`) all have one.
 *
 * A step's function may still run more than once if the worker dies after it ran and before its result was
 * recorded: that is every engine's "at least once". The circuit builds "exactly once, or reported unknown"
 * for tool calls on top (see `stepTools`), with two steps per call.
 *
 * Steps must be met in the same order on every execution of a run, which is why the circuit runs the calls
 * of a turn one after the other inside a durable run.
 */
export interface DurableSteps {
  /**
   * Runs `fn` as the step `name`; its result must be plain JSON data (it is recorded). `fn` gets the
   * engine's cancellation signal when it has one: it fires when the run is cancelled or times out, and the
   * circuit passes it on to the running tool.
   */
  run<T>(name: string, fn: (cancelled?: AbortSignal) => Promise<T>): Promise<T>;
  /**
   * A value that differs between two executions of the same run (a fresh one for each replay): the circuit
   * records it in a call's "started" step to tell, on a replay, a call started by an earlier execution.
   */
  readonly executionId: string;
}
