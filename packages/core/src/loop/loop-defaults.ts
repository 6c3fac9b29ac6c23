/** Model turns a run may take before it stops with status `max_turns`. */
export const DEFAULT_MAX_TURNS = 10;
/**
 * Calls of one turn that run at the same time. Tools are mostly I/O-bound (a request, a query), so a turn's
 * calls should all be in flight together: a model asks for a handful per turn (8 in a busy one), and a bound
 * of 4 ran such a turn in two waves, doubling its wall time for no gain. 16 keeps every ordinary turn in one
 * wave while still bounding a runaway turn of hundreds of calls; set `concurrency` lower for tools that
 * share a scarce resource (1 runs them one after the other), or `Infinity` for no bound.
 */
export const DEFAULT_CONCURRENCY = 16;
