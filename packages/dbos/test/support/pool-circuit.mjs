// The circuit every process of the pool tests runs: a stateless scripted model (its answer depends only on
// the conversation, so any worker can play any turn) and tools whose side effects land in a table of their
// own, so that how often each call ran is observed, not assumed.
import { createCatalogue, defineTool, everySession } from '@toolcircuit/core';
import { textTurn, toolCallsTurn } from '@toolcircuit/testing';

/** The tools' own table: one row per execution, nothing unique, so a second execution shows. */
export const EFFECTS_DDL = `CREATE TABLE IF NOT EXISTS tool_effects (
  run_id text NOT NULL, call_id text NOT NULL, tool text NOT NULL, worker text NOT NULL,
  at timestamptz NOT NULL DEFAULT now())`;

/**
 * Turn 1: `notesPerTurn` reversible notes and one irreversible payment (which pauses the run for the
 * human); turn 2, after the approval: a final text.
 */
export function poolModel(notesPerTurn) {
  return {
    provider: 'scripted',
    modelId: 'scripted-pool',
    async generate(request) {
      const last = request.messages.at(-1);
      if (last?.role === 'user') {
        const runId = typeof last.content === 'string' ? last.content : (last.content[0]?.text ?? '');
        const calls = [];
        for (let index = 0; index < notesPerTurn; index += 1) {
          calls.push({ id: `note_${index + 1}`, name: 'record_note', input: { run: runId, note: index + 1 } });
        }
        calls.push({ id: 'payment', name: 'send_payment', input: { run: runId, cents: 1200 } });
        return toolCallsTurn(calls);
      }
      return textTurn('paid and noted');
    },
  };
}

/** `pool` is a pg Pool on the database holding `tool_effects`; `delayMs` keeps a call in flight a while. */
export function poolCatalogue(pool, worker, delayMs) {
  const effect = async (tool, input, context) => {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    await pool.query('INSERT INTO tool_effects (run_id, call_id, tool, worker) VALUES ($1, $2, $3, $4)', [
      context.runId,
      context.callId,
      tool,
      worker,
    ]);
    return `${tool} done for ${input.run}`;
  };
  return createCatalogue([
    defineTool({
      name: 'record_note',
      description: 'Records a note on the case.',
      inputSchema: {
        type: 'object',
        properties: { run: { type: 'string' }, note: { type: 'integer' } },
        required: ['run', 'note'],
      },
      right: everySession,
      outputTrust: 'trusted',
      run: (input, context) => effect('record_note', input, context),
    }),
    defineTool({
      name: 'send_payment',
      description: 'Sends a payment; cannot be undone.',
      inputSchema: {
        type: 'object',
        properties: { run: { type: 'string' }, cents: { type: 'integer' } },
        required: ['run', 'cents'],
      },
      right: 'payments:send',
      irreversible: true,
      run: (input, context) => effect('send_payment', input, context),
    }),
  ]);
}

export const POOL_SESSION = { id: 'session-pool', humanId: 'alice', rights: ['payments:send'] };
