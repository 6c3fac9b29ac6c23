/**
 * Base of every error toolcircuit throws. Errors are grouped by who must act:
 * - `configuration`: the developer's setup is wrong (catalogue, config, keys); the message names the fix.
 * - `provider`: the provider answered with an error or could not be reached.
 * - `circuit`: an invariant of the loop itself broke (a bug or a corrupted run state).
 * - `store`: the database that keeps runs and their journal failed or refused (unreachable, timed out,
 *   read-only, damaged); the error says which store, whether trying again can help, and what to do.
 * Model mistakes are never thrown: they become `isError` tool results.
 */
export abstract class ToolcircuitError extends Error {
  abstract readonly kind: 'configuration' | 'provider' | 'circuit' | 'store';
  /** Stable machine-readable code, e.g. `duplicate_tool_name`. */
  abstract readonly code: string;

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}
