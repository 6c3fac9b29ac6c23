// A circuit for the data-flow tests (synthetic): a model that reads an invoice, extracts its IBAN through
// the quarantined reader and pays it by reference; a reader that answers from the invoice; counters of what
// really happened.
import { createCatalogue, defineTool, everySession, type Model, type ModelRequest } from '@toolcircuit/core';
import { textTurn, toolCallsTurn } from '@toolcircuit/testing';
import type { DurableCircuit } from '../../src/index.js';

export const IBAN = 'FR7630006000011234567890189';
const fields = { type: 'object', properties: { iban: { type: 'string' } } };

export function invoiceCircuit() {
  const counts = { reader: 0, paid: [] as unknown[], modelSawInvoice: false };
  const model: Model = {
    provider: 'scripted',
    modelId: 'pays-the-invoice',
    async generate(request: ModelRequest) {
      if (JSON.stringify(request.messages).includes(IBAN)) counts.modelSawInvoice = true;
      const calls = request.messages.flatMap((message) => (message.role === 'assistant' ? message.content : []));
      if (calls.length === 0) return toolCallsTurn([{ id: 'read', name: 'read_invoice', input: {} }]);
      if (calls.length === 1) return toolCallsTurn([{ id: 'x', name: 'extract', input: { handle: '$doc1', fields } }]);
      if (calls.length === 2) return toolCallsTurn([{ id: 'pay', name: 'send_money', input: { iban: '$doc1.iban' } }]);
      return textTurn('paid');
    },
  };
  const reader: Model = {
    provider: 'reader',
    modelId: 'reader',
    async generate() {
      counts.reader += 1;
      return textTurn(JSON.stringify({ iban: IBAN }));
    },
  };
  const catalogue = createCatalogue([
    defineTool({
      name: 'read_invoice',
      description: 'Reads an invoice.',
      inputSchema: { type: 'object' },
      right: everySession,
      run: () => ({ iban: IBAN }),
    }),
    defineTool({
      name: 'send_money',
      description: 'Sends money.',
      inputSchema: { type: 'object' },
      right: everySession,
      irreversible: true,
      trustedOnly: ['/iban'],
      run: (input) => {
        counts.paid.push(input);
        return 'sent';
      },
    }),
  ]);
  const definition: DurableCircuit = {
    model,
    catalogue,
    dataFlow: { quarantine: { tools: ['read_invoice'], reader } },
  };
  return { definition, counts };
}
