import {
  createCatalogue,
  createSession,
  type Message,
  type Model,
  runLoop,
  type ToolDeclaration,
} from '@toolcircuit/core';
import { ORDERS_RIGHT, orderToolDefinition } from '../scenario/order-tool-definition.js';

export const WIRE_TOOL = 'look_up_orders';

export interface PlayedConversation {
  /** `performance.now()` as each model call started: one per step. */
  readonly stamps: readonly number[];
  /**
   * This process's CPU time (user + system, ms) as each model call started: the adapter's, the SDK's and
   * the socket's work of a step, without the server's or anyone else's on the shared cores.
   */
  readonly cpuStamps: readonly number[];
  /** The whole history the loop built: the user message, then per step an assistant turn and its tool reply. */
  readonly messages: readonly Message[];
  /** The catalogue's declarations, the same frozen array the loop passed on every step. */
  readonly tools: readonly ToolDeclaration[];
}

/** The real loop against `model` for exactly `steps` steps (the instant answers always ask for more calls). */
export async function playConversation(model: Model, steps: number): Promise<PlayedConversation> {
  const catalogue = createCatalogue([orderToolDefinition(WIRE_TOOL)]);
  const stamps: number[] = [];
  const cpuStamps: number[] = [];
  const timed: Model = {
    provider: model.provider,
    modelId: model.modelId,
    generate: (request) => {
      const cpu = process.cpuUsage();
      cpuStamps.push((cpu.user + cpu.system) / 1000);
      stamps.push(performance.now());
      return model.generate(request);
    },
  };
  const result = await runLoop({
    model: timed,
    catalogue,
    session: createSession({ id: 'wire', humanId: 'wire', rights: [ORDERS_RIGHT] }),
    messages: [{ role: 'user', content: 'Which of my orders are still open?' }],
    maxTurns: steps,
  });
  if (result.status !== 'max_turns' || result.turns.length !== steps) {
    throw new Error(`wire run stopped early: ${result.status} after ${result.turns.length} turns`);
  }
  return { stamps, cpuStamps, messages: result.messages, tools: catalogue.declarations };
}
