import {
  type Catalogue,
  createCatalogue,
  createSession,
  defineTool,
  type JsonObject,
  type Session,
  toolError,
} from '@toolcircuit/core';

/** The right the conformance session holds: reading case files. */
export const READ_CASE_FILES_RIGHT = 'dossiers:lire';
/** The right it lacks, so that closing a case file is refused whatever the model says. */
export const CLOSE_CASE_FILES_RIGHT = 'dossiers:cloturer';

/** The case files the tools know. Fixed data: every backend must see byte-identical tool results. */
const CASE_FILES: readonly JsonObject[] = [
  { numero: 'A-1234', titre: 'Dupont c. Martin', statut: 'ouvert' },
  { numero: 'B-5678', titre: 'Succession Leroy', statut: 'ouvert' },
];

/**
 * The conformance catalogue, rebuilt per run so runs share no state:
 * - `chercher_dossier` takes a `numero` with a pattern and no other property (what invalid arguments fail);
 *   it returns an object (one `json` part) or, for an unknown number, an error result the tool shapes itself;
 * - `lister_dossiers` takes no parameters and returns text;
 * - `cloturer_dossier` needs a right the conformance session does not hold, so it is always refused.
 */
export function createConformanceCatalogue(): Catalogue {
  return createCatalogue([
    defineTool({
      name: 'chercher_dossier',
      description: 'Trouve un dossier par son numéro (par exemple A-1234).',
      inputSchema: {
        type: 'object',
        properties: { numero: { type: 'string', pattern: '^[A-Z]-[0-9]{4}$' } },
        required: ['numero'],
        additionalProperties: false,
      },
      right: READ_CASE_FILES_RIGHT,
      run: ({ numero }) => {
        const found = CASE_FILES.find((file) => file['numero'] === numero);
        return found ?? toolError(`Aucun dossier ne porte le numéro ${numero}.`);
      },
    }),
    defineTool({
      name: 'lister_dossiers',
      description: 'Liste les dossiers ouverts.',
      inputSchema: { type: 'object', properties: {} },
      right: READ_CASE_FILES_RIGHT,
      run: () => CASE_FILES.map((file) => `${String(file['numero'])} : ${String(file['titre'])}`).join('\n'),
    }),
    defineTool({
      name: 'cloturer_dossier',
      description: 'Clôture un dossier.',
      inputSchema: {
        type: 'object',
        properties: { numero: { type: 'string', pattern: '^[A-Z]-[0-9]{4}$' } },
        required: ['numero'],
        additionalProperties: false,
      },
      right: CLOSE_CASE_FILES_RIGHT,
      run: ({ numero }) => `Dossier ${numero} clôturé.`,
    }),
  ]);
}

/** A session that may read case files but not close them. */
export function createConformanceSession(): Session {
  return createSession({ id: 'conformance-session', humanId: 'conformance-human', rights: [READ_CASE_FILES_RIGHT] });
}

/** The tool names every backend must declare on its first request, in catalogue order. */
export const CONFORMANCE_TOOL_NAMES: readonly string[] = ['chercher_dossier', 'lister_dossiers', 'cloturer_dossier'];
