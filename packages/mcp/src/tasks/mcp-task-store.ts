/**
 * Where the ids of task-augmented calls are kept while their tasks run (2025-11-25 tasks): keyed by the
 * server, the run and the call, so a worker that restarts the run's call finds the task it started and
 * collects its result instead of calling the tool again. Back it with the database that keeps your runs; the
 * in-memory one survives only as long as this process.
 */
export interface McpTaskStore {
  get(key: string): string | undefined | Promise<string | undefined>;
  set(key: string, taskId: string): void | Promise<void>;
  delete(key: string): void | Promise<void>;
}

export class InMemoryMcpTaskStore implements McpTaskStore {
  readonly #tasks = new Map<string, string>();

  get(key: string): string | undefined {
    return this.#tasks.get(key);
  }

  set(key: string, taskId: string): void {
    this.#tasks.set(key, taskId);
  }

  delete(key: string): void {
    this.#tasks.delete(key);
  }
}
