import { z } from 'zod';
import { createCatalogue, createSession, defineTool, everySession, InMemoryConfirmations } from '../src/index.js';

/** The seed's example: a French tool that looks up a case file by its exact number. */
export const chercherDossier = defineTool({
  name: 'chercher_dossier',
  description: 'Look up a case file by its exact number (format X-0000, e.g. "A-1234").',
  inputSchema: {
    type: 'object',
    properties: { numero: { type: 'string', pattern: '^[A-Z]-[0-9]{4}$', description: 'Case number, e.g. A-1234' } },
    required: ['numero'],
    additionalProperties: false,
  },
  right: 'dossiers:lire',
  run: ({ numero }) => ({ numero, titre: `Dossier ${numero}`, statut: 'ouvert' }),
});

export function paymentTool(runs: unknown[] = []) {
  return defineTool({
    name: 'virement',
    description: 'Transfer money. Irreversible.',
    inputSchema: {
      type: 'object',
      properties: { amount: { type: 'integer', minimum: 1 }, to: { type: 'string' } },
      required: ['amount', 'to'],
      additionalProperties: false,
    },
    right: 'payments:write',
    irreversible: true,
    run: (input) => {
      runs.push(input);
      return `sent ${input.amount} to ${input.to}`;
    },
  });
}

export const echoTool = defineTool({
  name: 'echo',
  description: 'Echo the text back.',
  inputSchema: z.object({ text: z.string().max(10_000) }),
  right: everySession,
  run: ({ text }) => text,
});

/**
 * The pause/resume world: the lookup and the irreversible transfer (`runs` counts its real executions), and
 * Marie's session holding both rights, with a confirmation store the tests can fill.
 */
export function paymentWorld() {
  const runs: unknown[] = [];
  const catalogue = createCatalogue([chercherDossier, paymentTool(runs)]);
  const confirmations = new InMemoryConfirmations();
  const session = createSession({
    id: 'session-7',
    humanId: 'marie',
    rights: ['dossiers:lire', 'payments:write'],
    confirmations,
  });
  return { runs, catalogue, session, confirmations };
}

export function frenchCatalogue() {
  return createCatalogue([chercherDossier]);
}

/** A tool that runs until the test releases it: for calls that settle after the others of their turn. */
export function slowTool(release: Promise<void>) {
  return defineTool({
    name: 'slow',
    description: 'Waits until the test releases it.',
    inputSchema: { type: 'object' },
    right: everySession,
    run: async () => {
      await release;
      return 'late';
    },
  });
}

/** A tool that runs until its signal aborts, and shows the test which signal it was given. */
export function untilAbortedTool(seen: { signal?: AbortSignal } = {}) {
  return defineTool({
    name: 'attendre',
    description: 'Runs until cancelled.',
    inputSchema: { type: 'object' },
    right: everySession,
    run: (_input, { signal }) => {
      seen.signal = signal;
      return new Promise<string>((resolve) => signal.addEventListener('abort', () => resolve('stopped')));
    },
  });
}
