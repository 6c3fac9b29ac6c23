import type { ToolContext } from '../catalogue/tool.js';
import type { Session } from '../session/session.js';
import type { Attempt } from './attempt.js';

/**
 * What the tool is handed. Its signal's controller is made only when the tool reads it or the call is
 * aborted (an AbortSignal costs microseconds and a kilobyte): one per call, so listeners a tool leaves on it
 * die with the call, and a tool that reads its signal only after a timeout still finds it aborted. `signal`
 * is an own enumerable getter, so a tool that passes `{ ...context }` on keeps it.
 */
export class CallToolContext implements ToolContext {
  readonly session: Session;
  readonly callId: string;
  readonly runId: string;
  readonly toolName: string;
  readonly turn: number;
  declare readonly signal: AbortSignal;
  #controller: AbortController | undefined;

  constructor(attempt: Attempt) {
    this.session = attempt.context.session;
    this.callId = attempt.call.id;
    this.runId = attempt.runId;
    this.toolName = attempt.call.name;
    this.turn = attempt.context.turn ?? 1;
    Object.defineProperty(this, 'signal', TOOL_SIGNAL);
  }

  static controllerOf(context: CallToolContext): AbortController {
    context.#controller ??= new AbortController();
    return context.#controller;
  }
}

const TOOL_SIGNAL: PropertyDescriptor = {
  enumerable: true,
  get(this: CallToolContext): AbortSignal {
    return CallToolContext.controllerOf(this).signal;
  },
};
