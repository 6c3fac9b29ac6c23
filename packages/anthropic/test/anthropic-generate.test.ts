import { toolCallsOf } from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { CUT_OFF_INPUT_ERROR } from '../src/index.js';
import { json, message, replay, syntheticCassette } from './replay.js';
import { CASE_FILE_TOOLS } from './scenario.js';

const REQUEST = { messages: [{ role: 'user' as const, content: 'go' }], tools: CASE_FILE_TOOLS };

async function generate(body: ReturnType<typeof message>, note: string) {
  const { model, server } = await replay(syntheticCassette(note, [json(body)]));
  const turn = await model.generate(REQUEST);
  expect(server.mismatches).toEqual([]);
  return turn;
}

describe('generate(): response → neutral turn', () => {
  it('text + two calls to the same tool + a no-parameter tool, in emission order', async () => {
    const turn = await generate(
      message(
        [
          { type: 'text', text: 'Looking both up.' },
          { type: 'tool_use', id: 'toolu_1', name: 'chercher_dossier', input: { numero: 'A-0001' } },
          { type: 'tool_use', id: 'toolu_2', name: 'chercher_dossier', input: { numero: 'B-0002' } },
          { type: 'tool_use', id: 'toolu_3', name: 'lister_dossiers', input: {} },
        ],
        'tool_use',
      ),
      'three parallel calls, two to the same tool',
    );
    expect(turn.content).toEqual([
      { type: 'text', text: 'Looking both up.' },
      { type: 'tool_call', id: 'toolu_1', name: 'chercher_dossier', input: { numero: 'A-0001' } },
      { type: 'tool_call', id: 'toolu_2', name: 'chercher_dossier', input: { numero: 'B-0002' } },
      { type: 'tool_call', id: 'toolu_3', name: 'lister_dossiers', input: {} },
    ]);
    expect(turn.stopReason).toEqual({ unified: 'tool_calls', raw: 'tool_use' });
    expect(turn.usage).toEqual({ inputTokens: 10, outputTokens: 5, totalTokens: 15, cachedInputTokens: 0 });
    expect(turn.providerMetadata).toEqual({
      anthropic: { id: 'msg_synthetic', model: 'claude-sonnet-4-6', cacheCreationInputTokens: 0 },
    });
  });

  it('an absent input becomes {}; a non-object input becomes inputError with rawInput', async () => {
    const turn = await generate(
      message(
        [
          { type: 'tool_use', id: 'toolu_absent', name: 'lister_dossiers' },
          { type: 'tool_use', id: 'toolu_str', name: 'chercher_dossier', input: 'A-0001' },
        ],
        'tool_use',
      ),
      'absent and non-object tool inputs (not seen in recordings: defensive)',
    );
    expect(toolCallsOf(turn.content)).toEqual([
      { type: 'tool_call', id: 'toolu_absent', name: 'lister_dossiers', input: {} },
      {
        type: 'tool_call',
        id: 'toolu_str',
        name: 'chercher_dossier',
        input: undefined,
        rawInput: '"A-0001"',
        inputError: 'tool input is not a JSON object',
      },
    ]);
  });

  it('unicode in text and inputs survives', async () => {
    const turn = await generate(
      message(
        [
          { type: 'text', text: 'Je cherche « É-0001 » 🗂️' },
          { type: 'tool_use', id: 'toolu_u', name: 'chercher_dossier', input: { numero: 'É-0001', note: '日本語 ✓' } },
        ],
        'tool_use',
      ),
      'unicode',
    );
    expect(turn.content).toEqual([
      { type: 'text', text: 'Je cherche « É-0001 » 🗂️' },
      { type: 'tool_call', id: 'toolu_u', name: 'chercher_dossier', input: { numero: 'É-0001', note: '日本語 ✓' } },
    ]);
  });

  it('keeps thinking signatures and redacted data in providerMetadata.anthropic', async () => {
    const turn = await generate(
      message(
        [
          { type: 'thinking', thinking: 'The user wants a list.', signature: 'EqEECkYICxgC==' },
          { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va==' },
          { type: 'tool_use', id: 'toolu_t', name: 'lister_dossiers', input: {} },
        ],
        'tool_use',
      ),
      'thinking + redacted thinking before a call, shaped like pydantic-ai__test_anthropic_tool_with_thinking',
    );
    expect(turn.content).toEqual([
      {
        type: 'reasoning',
        text: 'The user wants a list.',
        providerMetadata: { anthropic: { signature: 'EqEECkYICxgC==' } },
      },
      { type: 'reasoning', text: '', providerMetadata: { anthropic: { data: 'EmwKAhgBEgy3va==' } } },
      { type: 'tool_call', id: 'toolu_t', name: 'lister_dossiers', input: {} },
    ]);
  });

  it('max_tokens with a tool_use last: that call is marked cut off and has no input', async () => {
    const turn = await generate(
      message(
        [
          { type: 'tool_use', id: 'toolu_ok', name: 'lister_dossiers', input: {} },
          { type: 'tool_use', id: 'toolu_cut', name: 'chercher_dossier', input: { numero: 'A-' } },
        ],
        'max_tokens',
      ),
      'output limit hit during the second call',
    );
    expect(turn.stopReason).toEqual({ unified: 'max_tokens', raw: 'max_tokens' });
    expect(toolCallsOf(turn.content)).toEqual([
      { type: 'tool_call', id: 'toolu_ok', name: 'lister_dossiers', input: {} },
      {
        type: 'tool_call',
        id: 'toolu_cut',
        name: 'chercher_dossier',
        input: undefined,
        rawInput: '{"numero":"A-"}',
        inputError: CUT_OFF_INPUT_ERROR,
      },
    ]);
  });

  it.each([
    ['end_turn', false, 'end_turn'],
    ['end_turn', true, 'tool_calls'],
    ['stop_sequence', false, 'stop_sequence'],
    ['pause_turn', false, 'pause'],
    ['refusal', false, 'refusal'],
    ['model_context_window_exceeded', false, 'context_window_exceeded'],
    ['max_tokens', false, 'max_tokens'],
    ['some_future_reason', false, 'other'],
  ] as const)('stop_reason %s (calls: %s) → %s, raw kept', async (raw, withCall, unified) => {
    const content = withCall
      ? [
          { type: 'text', text: 'x' },
          { type: 'tool_use', id: 'toolu_s', name: 'lister_dossiers', input: {} },
          { type: 'text', text: 'done' },
        ]
      : [{ type: 'text', text: 'x' }];
    const turn = await generate(message(content, raw), `stop reason ${raw}`);
    expect(turn.stopReason).toEqual({ unified, raw });
  });

  it('counts cache reads and writes in inputTokens and reports thinking tokens', async () => {
    const turn = await generate(
      message([{ type: 'text', text: 'x' }], 'end_turn', {
        usage: {
          input_tokens: 10,
          output_tokens: 20,
          cache_read_input_tokens: 100,
          cache_creation_input_tokens: 5,
          output_tokens_details: { thinking_tokens: 7 },
        },
      }),
      'cached usage',
    );
    expect(turn.usage).toEqual({
      inputTokens: 115,
      outputTokens: 20,
      totalTokens: 135,
      cachedInputTokens: 100,
      cacheWriteInputTokens: 5,
      reasoningTokens: 7,
    });
  });
});
