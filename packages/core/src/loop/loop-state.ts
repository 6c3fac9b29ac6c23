import { randomUUID } from 'node:crypto';
import type { Message } from '../messages/messages.js';
import type { ModelTurn } from '../messages/model-turn.js';
import { emptyUsage, type Usage } from '../messages/usage.js';
import type { LoopOptions } from './loop-options.js';

/** What the loop carries from turn to turn; also what a paused run is rebuilt into. */
export interface LoopState {
  readonly runId: string;
  readonly messages: Message[];
  readonly turns: ModelTurn[];
  usage: Usage;
}

/** The state of a run that has not asked the model yet. */
export function startLoopState(options: LoopOptions): LoopState {
  return {
    runId: options.runId ?? randomUUID(),
    messages: [...options.messages],
    turns: [],
    usage: emptyUsage,
  };
}
