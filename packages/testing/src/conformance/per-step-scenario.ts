import {
  type Catalogue,
  createCatalogue,
  createSession,
  defineTool,
  everySession,
  type Message,
  type PrepareStep,
  type Session,
} from '@toolcircuit/core';

/** The per-step scenario's pieces: each adapter's test plays it over its wire and checks the bodies sent. */
export interface PerStepScenario {
  /** `lookup` (strict, one input example) and `summarise` (one raw option per provider). */
  readonly catalogue: Catalogue;
  readonly session: Session;
  readonly messages: readonly Message[];
  /**
   * Step 1 offers only `lookup` and forces it; step 2 offers only `summarise` with `required` (the model
   * calls `lookup` again: refused as inactive); step 3 offers `summarise` with `none` and a new system text.
   */
  readonly prepareStep: PrepareStep;
  /** The calls the model makes at steps 1 and 2 (the same lookup twice); step 3 answers in text. */
  readonly call: { readonly name: 'lookup'; readonly input: { readonly numero: 'A-1234' } };
  readonly answer: string;
  readonly system: string;
}

/**
 * The per-step control scenario shared by the adapters' wire tests: `prepareStep` changes the tools and
 * the tool choice between steps, and a call to a tool not offered at its step is refused.
 */
export function createPerStepScenario(): PerStepScenario {
  const lookup = defineTool({
    name: 'lookup',
    description: 'Look up a case file by its number.',
    inputSchema: {
      type: 'object',
      properties: { numero: { type: 'string' }, note: { type: 'string' } },
      required: ['numero'],
      additionalProperties: false,
    },
    right: everySession,
    strict: true,
    inputExamples: [{ numero: 'A-1234' }],
    run: ({ numero }) => ({ numero, statut: 'ouvert' }),
  });
  const summarise = defineTool({
    name: 'summarise',
    description: 'Summarise a case file.',
    inputSchema: { type: 'object', properties: { numero: { type: 'string' } }, required: ['numero'] },
    right: everySession,
    // Each adapter reads its own entry and no other.
    providerOptions: {
      anthropic: { cache_control: { type: 'ephemeral' } },
      openai: { defer_loading: false },
      google: { behavior: 'BLOCKING' },
    },
    run: () => 'résumé',
  });
  const system = 'Answer now.';
  return {
    catalogue: createCatalogue([lookup, summarise]),
    session: createSession({ id: 'per-step', humanId: 'ana', rights: [] }),
    messages: [{ role: 'user', content: 'Résume A-1234.' }],
    prepareStep: ({ turn }) =>
      turn === 1
        ? { activeTools: ['lookup'], toolChoice: { type: 'tool', name: 'lookup' } }
        : turn === 2
          ? { activeTools: ['summarise'], toolChoice: 'required' }
          : { activeTools: ['summarise'], toolChoice: 'none', system },
    call: { name: 'lookup', input: { numero: 'A-1234' } },
    answer: 'Le dossier A-1234 est ouvert.',
    system,
  };
}
