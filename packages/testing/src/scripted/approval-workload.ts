import {
  type Catalogue,
  createCatalogue,
  defineTool,
  everySession,
  type Model,
  type ToolContext,
} from '@toolcircuit/core';
import { textTurn, toolCallsTurn } from './scripted-model.js';

/**
 * A workload for durable runs spread over processes: every run needs one approval. Its model is stateless
 * (the answer depends only on the conversation), so any worker can play any turn of any run.
 */
export interface ApprovalWorkloadOptions {
  /** Reversible `record_note` calls in the first turn, before the one irreversible `send_payment`. */
  readonly notes: number;
  /**
   * What each call does, e.g. insert a row into a table of the tools' own, so that how often each call ran
   * is observed independently of the engine that claims to have run it once.
   */
  readonly effect: (toolName: string, context: ToolContext) => Promise<void>;
}

/** The rights the workload's session needs (the payment is not open to every session). */
export const APPROVAL_WORKLOAD_RIGHTS: readonly string[] = ['payments:send'];

/**
 * Turn 1 asks for `notes` notes (`note_1`…) and one payment (`payment`), the run's id being the user's
 * text; the payment is irreversible, so the run pauses for the human. Turn 2, once the payment was
 * decided, is the final answer.
 */
export function approvalWorkloadModel(notes: number): Model {
  return {
    provider: 'scripted',
    modelId: 'scripted-approval-workload',
    async generate(request) {
      const last = request.messages.at(-1);
      if (last?.role !== 'user') return textTurn('paid and noted');
      const run = typeof last.content === 'string' ? last.content : (last.content[0]?.text ?? '');
      const calls = Array.from({ length: notes }, (_, index) => ({
        id: `note_${index + 1}`,
        name: 'record_note',
        input: { run, note: index + 1 },
      }));
      return toolCallsTurn([...calls, { id: 'payment', name: 'send_payment', input: { run, cents: 1200 } }]);
    },
  };
}

export function approvalWorkloadCatalogue(effect: ApprovalWorkloadOptions['effect']): Catalogue {
  const run = (toolName: string) => async (_input: unknown, context: ToolContext) => {
    await effect(toolName, context);
    return `${toolName} done`;
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
      run: run('record_note'),
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
      run: run('send_payment'),
    }),
  ]);
}
