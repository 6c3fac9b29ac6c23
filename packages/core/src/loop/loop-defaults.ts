/** Model turns a run may take before it stops with status `max_turns`. */
export const DEFAULT_MAX_TURNS = 10;
/** Calls of one turn that run at the same time. */
export const DEFAULT_CONCURRENCY = 4;
