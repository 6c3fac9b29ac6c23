/** Marks a tool's own refusal; `Symbol.for` so two copies of core (a bundled one, say) agree on it. */
const REFUSAL: unique symbol = Symbol.for('toolcircuit.toolRefusal') as never;

/**
 * What `run` returns to refuse a call it did not carry out at all: nothing was done and nothing was sent.
 * The call is answered as refused (`tool_refused`), journaled as `refused` with this message, never as
 * `executed`, so a journal reader (and a durable runner) knows the call did not happen. Use it only when
 * that is true: a tool that may have acted must return a result or an error ({@link toolError}).
 */
export interface ToolRefusal {
  readonly [REFUSAL]: true;
  /** What the model is told, and what the journal records as the refusal's message. */
  readonly message: string;
}

/** A refusal by the tool itself, for `run` to return (e.g. an MCP tool whose server changed its definition). */
export function toolRefusal(message: string): ToolRefusal {
  return Object.freeze({ [REFUSAL]: true as const, message });
}

/** Whether `run` returned {@link toolRefusal}; a value whose property read throws is not one. */
export function isToolRefusal(value: unknown): value is ToolRefusal {
  if (typeof value !== 'object' || value === null) return false;
  try {
    return (value as { [REFUSAL]?: unknown })[REFUSAL] === true && typeof (value as ToolRefusal).message === 'string';
  } catch {
    return false;
  }
}
