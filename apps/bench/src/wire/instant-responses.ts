import { orderInput } from '../scenario/order-tool.js';

/** Which provider API a request path belongs to. */
export type WireProtocol = 'anthropic' | 'openai-chat' | 'openai-responses' | 'google';

export function protocolOf(path: string): WireProtocol | undefined {
  if (path.startsWith('/v1/messages')) return 'anthropic';
  if (path.startsWith('/v1/chat/completions')) return 'openai-chat';
  if (path.startsWith('/v1/responses')) return 'openai-responses';
  if (path.includes(':generateContent')) return 'google';
  return undefined;
}

/**
 * A provider response holding `calls` valid tool calls, with ids unique across the whole server's life
 * (`serial` grows), so the loop keeps going for as many steps as it is allowed. Synthetic: shaped after
 * the documented wire formats, not recorded.
 */
export function instantResponse(protocol: WireProtocol, toolName: string, calls: number, serial: number): unknown {
  const inputs = Array.from({ length: calls }, (_, index) => orderInput(serial * calls + index));
  switch (protocol) {
    case 'anthropic':
      return {
        id: `msg_bench_${serial}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-bench',
        content: inputs.map((input, index) => ({
          type: 'tool_use',
          id: `toolu_${serial}_${index}`,
          name: toolName,
          input,
        })),
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 10 },
      };
    case 'openai-chat':
      return {
        id: `chatcmpl-bench-${serial}`,
        object: 'chat.completion',
        created: 1_767_225_600,
        model: 'gpt-bench',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              refusal: null,
              tool_calls: inputs.map((input, index) => ({
                id: `call_${serial}_${index}`,
                type: 'function',
                function: { name: toolName, arguments: JSON.stringify(input) },
              })),
            },
            finish_reason: 'tool_calls',
            logprobs: null,
          },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
      };
    case 'openai-responses':
      return {
        id: `resp_bench_${serial}`,
        object: 'response',
        created_at: 1_767_225_600,
        status: 'completed',
        error: null,
        incomplete_details: null,
        model: 'gpt-bench',
        output: inputs.map((input, index) => ({
          type: 'function_call',
          id: `fc_${serial}_${index}`,
          call_id: `call_${serial}_${index}`,
          name: toolName,
          arguments: JSON.stringify(input),
          status: 'completed',
        })),
        parallel_tool_calls: true,
        tool_choice: 'auto',
        tools: [],
        usage: {
          input_tokens: 10,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: 10,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: 20,
        },
      };
    case 'google':
      return {
        candidates: [
          {
            content: {
              role: 'model',
              parts: inputs.map((input) => ({ functionCall: { name: toolName, args: input } })),
            },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 10, totalTokenCount: 20 },
        modelVersion: 'gemini-bench',
      };
  }
}
