import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  InMemoryJournal,
  type Message,
  runLoop,
  type ToolCallPart,
  type ToolMessage,
  toolCallsOf,
} from '../../src/index.js';
import { catalogue, modelTurn, session } from '../random-turns.js';
import { scripted, textTurn } from '../support.js';

describe('the loop under random model turns (property-based)', () => {
  it('never throws, answers every request exactly once in one reply, pairs ids, journals every request', async () => {
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.array(modelTurn, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 5 }),
        async (turns, concurrency) => {
          const journal = new InMemoryJournal();
          const user: Message[] = [{ role: 'user', content: 'go' }];
          const model = scripted([...turns, textTurn('done')]);
          const result = await runLoop({ model, catalogue, session, messages: user, journal, concurrency });

          expect(result.status).toBe('completed');
          const requests = turns.flatMap((turn) => turn.content.filter((part) => part.type === 'tool_call'));
          const messages = result.messages.slice(1);
          for (const [index, turn] of turns.entries()) {
            const assistant = messages[index * 2];
            const reply = messages[index * 2 + 1] as ToolMessage;
            expect(assistant?.role).toBe('assistant');
            expect(reply.role).toBe('tool');
            const calls = turn.content.filter((part): part is ToolCallPart => part.type === 'tool_call');
            // The calls as sent back: the model's, with a missing or repeated id replaced (the original kept).
            const sent = assistant?.role === 'assistant' ? toolCallsOf(assistant.content) : [];
            expect(sent.map((part) => (part.originalId === undefined ? part.id : part.originalId))).toEqual(
              calls.map((part) => (part.id === '' ? null : part.id)),
            );
            expect(reply.content).toHaveLength(calls.length);
            expect(reply.content.map((part) => part.callId)).toEqual(sent.map((part) => part.id));
            expect(reply.content.map((part) => part.name)).toEqual(calls.map((part) => part.name));
            for (const part of reply.content) {
              expect(part.type).toBe('tool_result');
              expect(typeof part.isError).toBe('boolean');
            }
          }
          expect(messages.at(-1)?.role).toBe('assistant');
          // No id is ever repeated on the wire, in calls or in results.
          const sentIds = messages.flatMap((message) =>
            message.role === 'assistant' && typeof message.content !== 'string'
              ? toolCallsOf(message.content).map((part) => part.id)
              : [],
          );
          expect(new Set(sentIds).size).toBe(sentIds.length);
          expect(journal.entries).toHaveLength(requests.length);
          expect(
            journal.entries.filter((entry) => entry.verdict === 'executed' && entry.toolName === 'admin_reset'),
          ).toEqual([]);
          expect(
            journal.entries.filter((entry) => entry.verdict === 'executed' && entry.toolName === 'virement'),
          ).toEqual([]);
          expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
          for (const entry of journal.entries) {
            const key = entry.reason ?? entry.verdict;
            seen.set(key, (seen.get(key) ?? 0) + 1);
          }
        },
      ),
      { numRuns: 150 },
    );
    // The generators must reach every branch, or the property above would prove little.
    expect([...seen.keys()].sort()).toEqual(
      expect.arrayContaining([
        'confirmation_required',
        'duplicate_call_id',
        'executed',
        'failed',
        'incomplete_call',
        'invalid_input',
        'missing_right',
        'unknown_tool',
      ]),
    );
  });
});
