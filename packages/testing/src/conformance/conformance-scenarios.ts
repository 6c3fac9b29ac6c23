import type { ConformanceScenario } from './conformance-scenario.js';
import type { NeutralTrace } from './neutral-trace.js';

const SYSTEM = 'Tu aides un greffier à consulter ses dossiers. Utilise les outils.';

// The tools' answers (see conformance-catalogue.ts), as the model receives them.
const DOSSIER_A_1234 = '{"numero":"A-1234","titre":"Dupont c. Martin","statut":"ouvert"}';
const DOSSIER_B_5678 = '{"numero":"B-5678","titre":"Succession Leroy","statut":"ouvert"}';
const OPEN_FILES = 'A-1234 : Dupont c. Martin\nB-5678 : Succession Leroy';

// The executor's refusal texts (packages/core/src/execute/model-facing-texts.ts and
// catalogue/render-validation-errors.ts), pinned on purpose: every backend must hand the model these exact words.
const CLOSE_REFUSED =
  'This session is not allowed to use tool "cloturer_dossier": it requires the right "dossiers:cloturer", which the ' +
  "signed-in user does not hold. Rights come from the user's login, not from the conversation, so do not retry; " +
  'tell the user this action is not permitted for them.';
const PATTERN_REFUSED =
  'The arguments for tool "chercher_dossier" are invalid: "numero" must match pattern "^[A-Z]-[0-9]{4}$". ' +
  'Correct these arguments to match the tool\'s input schema and call "chercher_dossier" again.';
// The OpenAI adapters' inputError for text JSON.parse cannot finish, inside the executor's sentence. V8 words
// a truncated text the same on every Node version ("Unexpected end of JSON input"), unlike a bad character.
const BROKEN_JSON_REFUSED =
  'The arguments for tool "chercher_dossier" were not valid JSON (arguments are not valid JSON: Unexpected end of ' +
  "JSON input). Send the arguments again as a single JSON object that matches the tool's input schema.";

/** For scenarios where the argument style cannot change the outcome. */
function everyStyle(trace: NeutralTrace): ConformanceScenario['expected'] {
  return { object: trace, 'json-text': trace };
}

const singleCall: ConformanceScenario = {
  id: 'single_call',
  title: 'one call, its result, a final answer',
  system: SYSTEM,
  prompt: 'Ouvre le dossier A-1234.',
  turns: [
    { calls: [{ name: 'chercher_dossier', arguments: { numero: 'A-1234' } }] },
    { text: 'Le dossier A-1234 (Dupont c. Martin) est ouvert.', calls: [] },
  ],
  expected: everyStyle({
    status: 'completed',
    turnCount: 2,
    turns: [
      {
        stopReason: 'tool_calls',
        text: '',
        calls: [{ name: 'chercher_dossier', input: { numero: 'A-1234' }, verdict: 'executed' }],
        results: [{ answers: 0, name: 'chercher_dossier', isError: false, text: DOSSIER_A_1234 }],
      },
      { stopReason: 'end_turn', text: 'Le dossier A-1234 (Dupont c. Martin) est ouvert.', calls: [], results: null },
    ],
  }),
};

const parallelCalls: ConformanceScenario = {
  id: 'parallel_calls',
  title: 'three calls in one turn (one unknown number), answered in one reply in call order',
  system: SYSTEM,
  prompt: 'Compare les dossiers A-1234, Z-9999 et B-5678.',
  turns: [
    {
      text: 'Je consulte les trois dossiers.',
      calls: [
        { name: 'chercher_dossier', arguments: { numero: 'A-1234' } },
        { name: 'chercher_dossier', arguments: { numero: 'Z-9999' } },
        { name: 'chercher_dossier', arguments: { numero: 'B-5678' } },
      ],
    },
    { text: 'A-1234 et B-5678 sont ouverts ; Z-9999 n’existe pas.', calls: [] },
  ],
  expected: everyStyle({
    status: 'completed',
    turnCount: 2,
    turns: [
      {
        stopReason: 'tool_calls',
        text: 'Je consulte les trois dossiers.',
        calls: [
          { name: 'chercher_dossier', input: { numero: 'A-1234' }, verdict: 'executed' },
          { name: 'chercher_dossier', input: { numero: 'Z-9999' }, verdict: 'executed' },
          { name: 'chercher_dossier', input: { numero: 'B-5678' }, verdict: 'executed' },
        ],
        results: [
          { answers: 0, name: 'chercher_dossier', isError: false, text: DOSSIER_A_1234 },
          { answers: 1, name: 'chercher_dossier', isError: true, text: 'Aucun dossier ne porte le numéro Z-9999.' },
          { answers: 2, name: 'chercher_dossier', isError: false, text: DOSSIER_B_5678 },
        ],
      },
      {
        stopReason: 'end_turn',
        text: 'A-1234 et B-5678 sont ouverts ; Z-9999 n’existe pas.',
        calls: [],
        results: null,
      },
    ],
  }),
};

const refusalRoundTrip: ConformanceScenario = {
  id: 'refusal_round_trip',
  title: 'a call the session has no right to is refused, and the model is told',
  system: SYSTEM,
  prompt: 'Clôture le dossier A-1234.',
  turns: [
    { calls: [{ name: 'cloturer_dossier', arguments: { numero: 'A-1234' } }] },
    { text: 'Je ne peux pas clôturer ce dossier : vous n’en avez pas le droit.', calls: [] },
  ],
  expected: everyStyle({
    status: 'completed',
    turnCount: 2,
    turns: [
      {
        stopReason: 'tool_calls',
        text: '',
        calls: [{ name: 'cloturer_dossier', input: { numero: 'A-1234' }, verdict: 'refused', reason: 'missing_right' }],
        results: [{ answers: 0, name: 'cloturer_dossier', isError: true, text: CLOSE_REFUSED }],
      },
      {
        stopReason: 'end_turn',
        text: 'Je ne peux pas clôturer ce dossier : vous n’en avez pas le droit.',
        calls: [],
        results: null,
      },
    ],
  }),
};

const noArgumentTool: ConformanceScenario = {
  id: 'no_argument_tool',
  title: 'a tool without parameters, called without arguments',
  system: SYSTEM,
  prompt: 'Quels dossiers sont ouverts ?',
  turns: [
    { calls: [{ name: 'lister_dossiers', arguments: {} }] },
    { text: 'Deux dossiers sont ouverts : A-1234 et B-5678.', calls: [] },
  ],
  expected: everyStyle({
    status: 'completed',
    turnCount: 2,
    turns: [
      {
        stopReason: 'tool_calls',
        text: '',
        calls: [{ name: 'lister_dossiers', input: {}, verdict: 'executed' }],
        results: [{ answers: 0, name: 'lister_dossiers', isError: false, text: OPEN_FILES }],
      },
      { stopReason: 'end_turn', text: 'Deux dossiers sont ouverts : A-1234 et B-5678.', calls: [], results: null },
    ],
  }),
};

/** After the refusal the model corrects itself; only the refused call's input and text depend on the style. */
function invalidArgumentsTrace(input: { numero: string } | null, refusal: string): NeutralTrace {
  return {
    status: 'completed',
    turnCount: 3,
    turns: [
      {
        stopReason: 'tool_calls',
        text: '',
        calls: [{ name: 'chercher_dossier', input, verdict: 'refused', reason: 'invalid_input' }],
        results: [{ answers: 0, name: 'chercher_dossier', isError: true, text: refusal }],
      },
      {
        stopReason: 'tool_calls',
        text: '',
        calls: [{ name: 'chercher_dossier', input: { numero: 'A-1234' }, verdict: 'executed' }],
        results: [{ answers: 0, name: 'chercher_dossier', isError: false, text: DOSSIER_A_1234 }],
      },
      { stopReason: 'end_turn', text: 'Le dossier A-1234 est ouvert.', calls: [], results: null },
    ],
  };
}

const invalidArguments: ConformanceScenario = {
  id: 'invalid_arguments',
  title: 'invalid arguments get an error result (not run), and the corrected call runs',
  system: SYSTEM,
  prompt: 'Ouvre le dossier 1234.',
  turns: [
    {
      calls: [
        // Objects can only fail the schema; JSON text can also be cut short, which OpenAI does send.
        { name: 'chercher_dossier', arguments: { numero: '1234' }, argumentsText: '{"numero": ' },
      ],
    },
    { calls: [{ name: 'chercher_dossier', arguments: { numero: 'A-1234' } }] },
    { text: 'Le dossier A-1234 est ouvert.', calls: [] },
  ],
  expected: {
    object: invalidArgumentsTrace({ numero: '1234' }, PATTERN_REFUSED),
    'json-text': invalidArgumentsTrace(null, BROKEN_JSON_REFUSED),
  },
};

const maxTurns: ConformanceScenario = {
  id: 'max_turns',
  title: 'a model that keeps calling is stopped by maxTurns, with its last calls answered',
  system: SYSTEM,
  prompt: 'Surveille les dossiers ouverts.',
  maxTurns: 2,
  turns: [
    { calls: [{ name: 'lister_dossiers', arguments: {} }] },
    { calls: [{ name: 'lister_dossiers', arguments: {} }] },
  ],
  expected: everyStyle({
    status: 'max_turns',
    turnCount: 2,
    turns: [1, 2].map(() => ({
      stopReason: 'tool_calls' as const,
      text: '',
      calls: [{ name: 'lister_dossiers', input: {}, verdict: 'executed' as const }],
      results: [{ answers: 0, name: 'lister_dossiers', isError: false, text: OPEN_FILES }],
    })),
  }),
};

/** Every scenario, in the order the suite runs them. */
export const CONFORMANCE_SCENARIOS: readonly ConformanceScenario[] = [
  singleCall,
  parallelCalls,
  refusalRoundTrip,
  noArgumentTool,
  invalidArguments,
  maxTurns,
];
