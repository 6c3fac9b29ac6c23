import {
  type Catalogue,
  createCatalogue,
  createSession,
  defineTool,
  everySession,
  type Model,
  type Session,
  type ToolContext,
} from '@toolcircuit/core';
import { textTurn, toolCallsTurn } from '@toolcircuit/testing';
import type pg from 'pg';

/** The durable-run workload: the same circuit on DBOS and on the PostgreSQL store's durable runner. */
export const EFFECTS_DDL = `CREATE TABLE IF NOT EXISTS tool_effects (
  run_id text NOT NULL, call_id text NOT NULL, tool text NOT NULL, worker text NOT NULL,
  at timestamptz NOT NULL DEFAULT now())`;

export const SESSION_DATA = { id: 'bench-session', humanId: 'bench-human', rights: ['payments:send'] };

export function benchSession(): Session {
  return createSession(SESSION_DATA);
}

/**
 * A stateless scripted model: turn 1 asks for `notes` reversible notes and one irreversible payment (the run
 * pauses for its approval), turn 2 answers. Any worker can play any turn.
 */
export function durableModel(notes: number): Model {
  return {
    provider: 'scripted',
    modelId: 'scripted-durable-bench',
    async generate(request) {
      const last = request.messages.at(-1);
      if (last?.role === 'user') {
        const runId = typeof last.content === 'string' ? last.content : (last.content[0]?.text ?? '');
        const calls = Array.from({ length: notes }, (_, index) => ({
          id: `note_${index + 1}`,
          name: 'record_note',
          input: { run: runId, note: index + 1 },
        }));
        return toolCallsTurn([...calls, { id: 'payment', name: 'send_payment', input: { run: runId, cents: 1200 } }]);
      }
      return textTurn('paid and noted');
    },
  };
}

/** Each call inserts one row into the tools' own table: a real side effect on the same server. */
export function durableCatalogue(pool: pg.Pool, worker: string): Catalogue {
  const effect = async (tool: string, context: ToolContext) => {
    await pool.query('INSERT INTO tool_effects (run_id, call_id, tool, worker) VALUES ($1, $2, $3, $4)', [
      context.runId,
      context.callId,
      tool,
      worker,
    ]);
    return `${tool} done`;
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
      run: (_input, context) => effect('record_note', context),
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
      run: (_input, context) => effect('send_payment', context),
    }),
  ]);
}
