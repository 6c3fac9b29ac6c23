import { describe, expect, it } from 'vitest';
import type { ModelRequest, ModelTurn, OutputFormat, StreamEvent, ToolDeclaration } from '../../src/index.js';
import { answerToolRequest, finalAnswerEvents, finalAnswerTurn } from '../../src/provider.js';
import { call, callsTurn, textTurn } from '../support.js';

const format: OutputFormat = Object.freeze({
  name: 'final_answer',
  schema: { type: 'object', properties: { total: { type: 'number' } }, required: ['total'] },
  strict: true,
});
const lookup: ToolDeclaration = { name: 'lookup', description: 'Look up.', inputSchema: { type: 'object' } };
const tools: readonly ToolDeclaration[] = Object.freeze([lookup]);
const request: ModelRequest = { messages: [], tools, output: format };

describe('answerToolRequest', () => {
  it('adds the answer tool after the tools, the same array every turn, and requires a call', () => {
    const first = answerToolRequest(request);
    expect(first.tools.map((tool) => tool.name)).toEqual(['lookup', 'final_answer']);
    expect(first.tools[1]?.inputSchema).toBe(format.schema);
    expect(first.toolChoice).toBe('required');
    expect(answerToolRequest({ ...request }).tools).toBe(first.tools);
  });

  it('"answer now" forces the answer tool, every tool still declared; a named tool stays forced', () => {
    expect(answerToolRequest({ ...request, toolChoice: 'none' })).toMatchObject({
      toolChoice: { type: 'tool', name: 'final_answer' },
      tools: [{ name: 'lookup' }, { name: 'final_answer' }],
    });
    expect(answerToolRequest({ ...request, toolChoice: { type: 'tool', name: 'lookup' } }).toolChoice).toEqual({
      type: 'tool',
      name: 'lookup',
    });
  });

  it('without forcing (thinking), the choice stays as asked and "answer now" is auto', () => {
    expect(answerToolRequest(request, { force: false }).toolChoice).toBeUndefined();
    expect(answerToolRequest({ ...request, toolChoice: 'none' }, { force: false }).toolChoice).toBe('auto');
  });

  it('leaves a request without output alone', () => {
    const plain: ModelRequest = { messages: [], tools };
    expect(answerToolRequest(plain)).toBe(plain);
  });
});

describe('finalAnswerTurn / finalAnswerEvents', () => {
  it('the answer call becomes the text of a turn that ends; other calls stay calls', () => {
    const answered = finalAnswerTurn(callsTurn([call('a1', 'final_answer', { total: 14 })]), {
      answerTool: 'final_answer',
    });
    expect(answered.content).toEqual([{ type: 'text', text: '{"total":14}' }]);
    expect(answered.stopReason.unified).toBe('end_turn');
    const mixed = finalAnswerTurn(callsTurn([call('l1', 'lookup', {}), call('a1', 'final_answer', { total: 1 })]), {
      answerTool: 'final_answer',
    });
    expect(mixed.content.map((part) => part.type)).toEqual(['tool_call', 'text']);
    expect(mixed.stopReason.unified).toBe('tool_calls');
  });

  it('arguments that did not parse go as their raw text, for the loop to report', () => {
    const broken = callsTurn([call('a1', 'final_answer', undefined, { rawInput: '{"total":', inputError: 'cut' })]);
    expect(finalAnswerTurn(broken, { answerTool: 'final_answer' }).content).toEqual([
      { type: 'text', text: '{"total":' },
    ]);
  });

  it('restores a native answer, and only a JSON answer without calls', () => {
    const restore = (value: unknown) => ({ ...(value as object), restored: true });
    expect(finalAnswerTurn(textTurn('{"total":1}'), { restore }).content).toEqual([
      { type: 'text', text: '{"total":1,"restored":true}' },
    ]);
    const prose = textTurn('not json');
    expect(finalAnswerTurn(prose, { restore })).toBe(prose);
    const withCall = callsTurn([call('l1', 'lookup', {})]);
    expect(finalAnswerTurn(withCall, { restore })).toBe(withCall);
  });

  it('on a stream: the answer call arrives as text deltas, and is not listed as an incomplete call', async () => {
    const turn: ModelTurn = callsTurn([call('a1', 'final_answer', { total: 14 })], 'max_tokens');
    async function* events(): AsyncGenerator<StreamEvent> {
      yield { type: 'tool-call-start', id: 'a1', name: 'final_answer', index: 0 };
      yield { type: 'tool-call-delta', id: 'a1', argumentsDelta: '{"tot' };
      yield { type: 'tool-call-delta', id: 'a1', argumentsDelta: 'al":14}' };
      yield { type: 'tool-call-end', id: 'a1', name: 'final_answer', input: { total: 14 } };
      yield { type: 'turn-end', turn, incompleteToolCallIds: ['a1'] };
    }
    const seen: StreamEvent[] = [];
    for await (const event of finalAnswerEvents(events(), { answerTool: 'final_answer' })) seen.push(event);
    expect(seen.slice(0, 2)).toEqual([
      { type: 'text-delta', text: '{"tot' },
      { type: 'text-delta', text: 'al":14}' },
    ]);
    const end = seen[2];
    expect(end?.type === 'turn-end' && end.incompleteToolCallIds).toEqual([]);
    expect(end?.type === 'turn-end' && end.turn.content).toEqual([{ type: 'text', text: '{"total":14}' }]);
  });
});
