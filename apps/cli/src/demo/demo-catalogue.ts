/**
 * The example catalogue of the README and of `toolcircuit demo`, usable on its own:
 *
 *     toolcircuit run node_modules/@toolcircuit/cli/dist/demo/demo-catalogue.js "Find case A-1234" \
 *       --model anthropic:claude-haiku-5-5
 *
 * Three tools over case files ("dossiers"), one per check the circuit makes before running anything:
 * - `chercher_dossier` takes an exact number `^[A-Z]-[0-9]{4}$`: "b-12" is refused by the schema;
 * - `supprimer_dossier` needs the right `dossiers:delete`, which the demo session does not hold;
 * - `cloturer_dossier` is irreversible: it needs `dossiers:close` AND the human's confirmation of its
 *   exact arguments before it runs.
 */
import { type Catalogue, createCatalogue, createSession, defineTool, type Session, toolError } from '@toolcircuit/core';
import { DemoCaseStore } from './demo-case-store.js';

export const DEMO_RIGHTS = {
  read: 'dossiers:read',
  delete: 'dossiers:delete',
  close: 'dossiers:close',
} as const;

/** The human the demo session acts for: the one who approves the irreversible call. */
export const DEMO_HUMAN = 'camille.martin';

export const DEMO_SYSTEM =
  'You help a claims handler manage case files ("dossiers"). Use the tools; never invent case data. ' +
  'If a tool refuses, tell the user why in one sentence.';

export const DEMO_PROMPT =
  'Cherche les dossiers A-1234 et b-12, puis supprime le dossier A-1234 et clôture-le (motif : « Demande du client »).';

const CASE_NUMBER = {
  type: 'string',
  pattern: '^[A-Z]-[0-9]{4}$',
  description: 'Exact case number, e.g. "A-1234".',
} as const;

/** The three tools over a store (a fresh one per run, so runs never see each other's changes). */
export function createDemoTools(store: DemoCaseStore) {
  return [
    defineTool({
      name: 'chercher_dossier',
      description:
        'Look up one case file by its exact number (format A-1234) and return its title and status. ' +
        'Only exact numbers: not for searching by name, address or keyword.',
      inputSchema: {
        type: 'object',
        properties: { numero: CASE_NUMBER },
        required: ['numero'],
        additionalProperties: false,
      },
      right: DEMO_RIGHTS.read,
      run: ({ numero }) => {
        store.recordRun('chercher_dossier');
        const found = store.find(numero);
        if (found === undefined) return toolError(`No case file numbered ${numero}.`);
        return { numero: found.numero, title: found.title, status: found.status };
      },
    }),
    defineTool({
      name: 'supprimer_dossier',
      description:
        'Permanently erase a case file and its history. Do not use to close a finished case: ' +
        'closing keeps the record, erasing destroys it.',
      inputSchema: {
        type: 'object',
        properties: { numero: CASE_NUMBER },
        required: ['numero'],
        additionalProperties: false,
      },
      right: DEMO_RIGHTS.delete,
      irreversible: true,
      run: ({ numero }) => {
        store.recordRun('supprimer_dossier');
        return store.delete(numero) ? `Case file ${numero} erased.` : toolError(`No case file numbered ${numero}.`);
      },
    }),
    defineTool({
      name: 'cloturer_dossier',
      description:
        'Mark an open case file as closed, with the reason given by the claimant; the record is kept. ' +
        'Irreversible: a closed case cannot be reopened. Never use to erase a case.',
      inputSchema: {
        type: 'object',
        properties: {
          numero: CASE_NUMBER,
          motif: {
            type: 'string',
            minLength: 3,
            maxLength: 200,
            description: 'Why the case is closed, in the claimant’s words.',
          },
        },
        required: ['numero', 'motif'],
        additionalProperties: false,
      },
      right: DEMO_RIGHTS.close,
      irreversible: true,
      run: ({ numero, motif }) => {
        store.recordRun('cloturer_dossier');
        const found = store.find(numero);
        if (found === undefined) return toolError(`No case file numbered ${numero}.`);
        if (found.status === 'closed') return toolError(`Case file ${numero} is already closed.`);
        found.status = 'closed';
        found.closingReason = motif;
        return `Case file ${numero} closed (reason: ${motif}).`;
      },
    }),
  ];
}

/** A catalogue over a fresh store. */
export function createDemoCatalogue(store = new DemoCaseStore()): { catalogue: Catalogue; store: DemoCaseStore } {
  return { catalogue: createCatalogue(createDemoTools(store)), store };
}

/** The demo's session: it may read and close case files, not erase them. */
export function createDemoSession(): Session {
  return createSession({ id: 'demo-session', humanId: DEMO_HUMAN, rights: [DEMO_RIGHTS.read, DEMO_RIGHTS.close] });
}

/** Exports read by `toolcircuit run` / `lint` / `convert` when this file is given as the catalogue module. */
export const catalogue: Catalogue = createDemoCatalogue().catalogue;
export const session: Session = createDemoSession();
export const system: string = DEMO_SYSTEM;
