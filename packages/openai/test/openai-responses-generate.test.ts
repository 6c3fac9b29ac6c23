import type { JsonObject, JsonValue, ModelTurn } from '@toolcircuit/core';
import { ProviderError, toolCallsOf } from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { CUT_OFF_ERROR } from '../src/index.js';
import {
  functionCallItem,
  jsonInteraction,
  messageItem,
  RESPONSES_PATH,
  reasoningItem,
  responsesResponse,
  syntheticCassette,
} from './support/cassettes.js';
import { bodyOf, rejectionOf, withResponsesReplay } from './support/replay.js';
import { CASE_FILE_TOOLS } from './support/scenario.js';

const ask = { messages: [{ role: 'user' as const, content: 'Go' }], tools: CASE_FILE_TOOLS };

async function turnFor(response: JsonValue): Promise<ModelTurn> {
  const cassette = syntheticCassette(
    'openai-responses',
    'one response shaped like the recorded gpt-4o / gpt-5 bodies',
    [jsonInteraction(RESPONSES_PATH, response)],
  );
  return withResponsesReplay(cassette, (model) => model.generate(ask));
}

describe('Responses output items → neutral turn', () => {
  it('keeps a reasoning item whole in providerMetadata, then the call, in output order', async () => {
    const reasoning = reasoningItem('rs_1', ['**Planning**\n\nLook it up.', '**Then**\n\nList.']);
    const turn = await turnFor(
      responsesResponse({
        output: [reasoning, functionCallItem('fc_1', 'call_1', 'chercher_dossier', '{"numero":"A-1234"}')],
        model: 'gpt-5-2025-08-07',
      }),
    );
    expect(turn.content).toEqual([
      {
        type: 'reasoning',
        text: '**Planning**\n\nLook it up.\n\n**Then**\n\nList.',
        providerMetadata: { openai: { item: reasoning } },
      },
      {
        type: 'tool_call',
        id: 'call_1',
        name: 'chercher_dossier',
        input: { numero: 'A-1234' },
        providerMetadata: { openai: { itemId: 'fc_1' } },
      },
    ]);
    expect(turn.stopReason).toEqual({ unified: 'tool_calls', raw: 'completed' });
    expect(turn.usage).toEqual({
      inputTokens: 124,
      outputTokens: 1926,
      totalTokens: 2050,
      cachedInputTokens: 0,
      reasoningTokens: 1792,
    });
    expect(turn.providerMetadata).toEqual({ openai: { responseId: 'resp_synthetic', model: 'gpt-5-2025-08-07' } });
  });

  it('reads two parallel calls to the same tool, and text with its item id', async () => {
    const turn = await turnFor(
      responsesResponse({
        output: [
          messageItem('msg_1', 'Deux recherches.'),
          functionCallItem('fc_1', 'call_1', 'chercher_dossier', '{"numero":"A-1234"}'),
          functionCallItem('fc_2', 'call_2', 'chercher_dossier', '{"numero":"B-0002"}'),
        ],
      }),
    );
    expect(turn.content[0]).toEqual({
      type: 'text',
      text: 'Deux recherches.',
      providerMetadata: { openai: { itemId: 'msg_1' } },
    });
    expect(toolCallsOf(turn.content).map((part) => [part.id, part.input])).toEqual([
      ['call_1', { numero: 'A-1234' }],
      ['call_2', { numero: 'B-0002' }],
    ]);
  });

  it('keeps invalid arguments raw, and reads empty ones as {}', async () => {
    const turn = await turnFor(
      responsesResponse({
        output: [
          functionCallItem('fc_1', 'call_1', 'chercher_dossier', '{"numero":'),
          functionCallItem('fc_2', 'call_2', 'lister_dossiers', ''),
        ],
      }),
    );
    const [bad, empty] = toolCallsOf(turn.content);
    expect(bad).toMatchObject({ input: undefined, rawInput: '{"numero":' });
    expect(bad?.inputError).toMatch(/not valid JSON/);
    expect(empty?.input).toEqual({});
  });

  it('derives max_tokens from incomplete + max_output_tokens and marks the unfinished call', async () => {
    const turn = await turnFor(
      responsesResponse({
        status: 'incomplete',
        incompleteReason: 'max_output_tokens',
        output: [
          functionCallItem('fc_1', 'call_1', 'chercher_dossier', '{"numero":"A-1234"}'),
          functionCallItem('fc_2', 'call_2', 'chercher_dossier', '{"numero":"B-', 'incomplete'),
        ],
      }),
    );
    expect(turn.stopReason).toEqual({ unified: 'max_tokens', raw: 'incomplete:max_output_tokens' });
    const [done, cut] = toolCallsOf(turn.content);
    expect(done?.input).toEqual({ numero: 'A-1234' });
    expect(cut).toMatchObject({ id: 'call_2', input: undefined, inputError: CUT_OFF_ERROR });
  });

  it.each([
    ['completed', undefined, false, 'end_turn', 'completed'],
    ['incomplete', 'content_filter', false, 'content_filter', 'incomplete:content_filter'],
    ['cancelled', undefined, false, 'other', 'cancelled'],
  ] as const)('maps status %s (%s) to %s', async (status, reason, _withCall, unified, raw) => {
    const turn = await turnFor(
      responsesResponse({
        status,
        ...(reason ? { incompleteReason: reason } : {}),
        output: [messageItem('msg_1', 'x')],
      }),
    );
    expect(turn.stopReason).toEqual({ unified, raw });
  });

  it('reports a refusal content part as text with stop reason refusal', async () => {
    const turn = await turnFor(
      responsesResponse({
        output: [
          {
            type: 'message',
            id: 'msg_r',
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'refusal', refusal: 'No.' }],
          },
        ],
      }),
    );
    expect(turn.content).toEqual([
      { type: 'text', text: 'No.', providerMetadata: { openai: { itemId: 'msg_r', refusal: true } } },
    ]);
    expect(turn.stopReason).toEqual({ unified: 'refusal', raw: 'completed' });
  });

  it('throws a failed response as a ProviderError', async () => {
    const failed = {
      ...(responsesResponse({ status: 'failed', output: [] }) as JsonObject),
      error: { code: 'server_error', message: 'The model failed to generate a response.' },
    };
    const cassette = syntheticCassette('openai-responses', 'a 200 carrying status failed', [
      jsonInteraction(RESPONSES_PATH, failed),
    ]);
    const error = await withResponsesReplay(cassette, (model) => rejectionOf(model.generate(ask)));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'server_error', retryable: true, providerCode: 'server_error' });
  });

  it('round-trips: the turn sent back as history re-creates the output items unchanged', async () => {
    const reasoning = reasoningItem('rs_9', ['Think.'], 'gAAAAAB-blob-9');
    const call = functionCallItem('fc_9', 'call_9', 'lister_dossiers', '{}');
    const cassette = syntheticCassette('openai-responses', 'reasoning + call, then the final answer', [
      jsonInteraction(RESPONSES_PATH, responsesResponse({ output: [reasoning, call], model: 'gpt-5-2025-08-07' })),
      jsonInteraction(RESPONSES_PATH, responsesResponse({ output: [messageItem('msg_9', 'Three open files.')] })),
    ]);
    await withResponsesReplay(
      cassette,
      async (model, server) => {
        const first = await model.generate(ask);
        const second = await model.generate({
          ...ask,
          messages: [
            ...ask.messages,
            { role: 'assistant', content: first.content },
            {
              role: 'tool',
              content: [
                { type: 'tool_result', callId: 'call_9', name: 'lister_dossiers', content: 'A, B, C', isError: false },
              ],
            },
          ],
        });
        expect(second.content[0]).toMatchObject({ text: 'Three open files.' });
        const input = bodyOf(server, 1)['input'] as JsonObject[];
        const { status: _status, ...callWithoutStatus } = call as JsonObject;
        expect(input.slice(1)).toEqual([
          reasoning,
          callWithoutStatus,
          { type: 'function_call_output', call_id: 'call_9', output: 'A, B, C' },
        ]);
        expect(bodyOf(server, 1)['include']).toEqual(['reasoning.encrypted_content']);
      },
      { model: 'gpt-5' },
    );
  });
});
