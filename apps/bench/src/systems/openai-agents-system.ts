import {
  Agent,
  type AgentOutputItem,
  type Model,
  type ModelResponse,
  run,
  setTracingDisabled,
  type Tool,
  tool,
  Usage,
} from '@openai/agents';
import { lookUpOrders, ORDER_TOOL_DESCRIPTION, orderZodSchema } from '../scenario/order-tool.js';
import type { Script } from '../scenario/scenario.js';
import { type BenchSystem, type PreparedRun, StepClock } from './bench-system.js';

/**
 * `@openai/agents` 0.20: `run(agent, input, { maxTurns: S + 1 })` over a hand-written fake `Model` (the
 * SDK's interface: `getResponse` returning Responses-style output items). Tools take a Zod `parameters`
 * schema in the SDK's default strict mode; the SDK runs `schema.parse(JSON.parse(arguments))` before
 * `execute` and answers a failed parse to the model instead of running the tool.
 *
 * Tracing is disabled: with no network there is nobody to export traces to, and a real deployment that
 * keeps tracing on pays more than measured here, not less.
 */
export function openAIAgentsSystem(): BenchSystem {
  setTracingDisabled(true);
  return {
    id: 'openai-agents',
    label: '@openai/agents 0.20.0',
    spec: { id: 'openai-agents' },
    validation: 'Zod parameters (strict mode); the SDK parses the arguments with the schema before execute',
    async prepare(script: Script): Promise<PreparedRun> {
      const counter = { runs: 0 };
      const tools: Tool[] = script.toolNames.map((name) =>
        tool({
          name,
          description: ORDER_TOOL_DESCRIPTION,
          parameters: orderZodSchema(),
          execute: (input) => {
            counter.runs += 1;
            return lookUpOrders(input);
          },
        }),
      );
      const clock = new StepClock();
      const agent = new Agent({
        name: 'orders',
        instructions: 'Answer questions about orders.',
        model: fakeModel(script, clock),
        tools,
      });
      return {
        async run() {
          clock.reset();
          counter.runs = 0;
          const started = performance.now();
          const result = await run(agent, script.userText, { maxTurns: script.turns.length + 1 });
          const totalMs = performance.now() - started;
          const finalText = typeof result.finalOutput === 'string' ? result.finalOutput : '';
          return { totalMs, stepStarts: [...clock.stamps], toolRuns: counter.runs, finalText };
        },
      };
    },
  };
}

function fakeModel(script: Script, clock: StepClock): Model {
  return {
    async getResponse(): Promise<ModelResponse> {
      const calls = script.turns[clock.stamp()];
      const output: AgentOutputItem[] =
        calls === undefined
          ? [
              {
                type: 'message',
                role: 'assistant',
                status: 'completed',
                content: [{ type: 'output_text', text: script.finalText }],
              },
            ]
          : calls.map((call) => ({
              type: 'function_call',
              callId: call.id,
              name: call.toolName,
              arguments: call.arguments,
              status: 'completed',
            }));
      return { usage: new Usage({ requests: 1, inputTokens: 10, outputTokens: 10, totalTokens: 20 }), output };
    },
    getStreamedResponse() {
      throw new Error('The benchmark only drives getResponse.');
    },
  };
}
