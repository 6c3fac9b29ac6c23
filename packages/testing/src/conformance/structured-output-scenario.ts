import type { JsonObject, JsonValue } from '@toolcircuit/core';
import type { Cassette, CassetteProtocol } from '../cassettes/cassette.js';
import type { ConformanceTurn } from './conformance-scenario.js';
import { conformanceWireOf } from './conformance-wires.js';
import { refusalBody } from './structured-output-wire.js';

/**
 * The structured-output conformance scenarios: a run with `output` (the case file as a typed object) on
 * every backend, in each way its adapter carries the answer.
 * - `structured_answer`: the model looks the case file up with a tool, then answers in the format;
 * - `structured_correction`: its first answer fails the schema (a number without its letter), the
 *   corrective turn (asked without tool calls) gets a valid one;
 * - `structured_refusal`: the model refuses (Gemini: its safety filter blocks the answer).
 */
export type StructuredOutputScenarioId = 'structured_answer' | 'structured_correction' | 'structured_refusal';

/** One way a backend carries the answer: the model id decides it (each adapter's default for that model). */
export interface StructuredOutputVariant {
  readonly protocol: CassetteProtocol;
  /** `native`: the provider's structured mode; `tool`: the answer tool. */
  readonly mode: 'native' | 'tool';
  readonly model: string;
}

/** Every backend's ways: Anthropic and Gemini each have both, by model. */
export const STRUCTURED_OUTPUT_VARIANTS: readonly StructuredOutputVariant[] = [
  { protocol: 'anthropic-messages', mode: 'native', model: 'claude-sonnet-4-6' },
  { protocol: 'anthropic-messages', mode: 'tool', model: 'claude-3-5-haiku-20241022' },
  { protocol: 'openai-chat', mode: 'native', model: 'gpt-4.1' },
  { protocol: 'openai-responses', mode: 'native', model: 'gpt-4.1' },
  { protocol: 'gemini', mode: 'tool', model: 'gemini-2.5-flash' },
  { protocol: 'gemini', mode: 'native', model: 'gemini-3-flash-preview' },
];

/** The run's output schema: the case file, with an optional hearing date. */
export const CASE_FILE_OUTPUT_SCHEMA = {
  type: 'object',
  properties: {
    numero: { type: 'string', pattern: '^[A-Z]-[0-9]{4}$' },
    titre: { type: 'string' },
    statut: { enum: ['ouvert', 'clos'] },
    audience: { type: 'string', description: 'Date of the next hearing (YYYY-MM-DD), if any.' },
  },
  required: ['numero', 'titre', 'statut'],
  additionalProperties: false,
} as const;

/** The answer every backend must return as `result.output`. */
export const CASE_FILE_ANSWER: JsonObject = { numero: 'A-1234', titre: 'Dupont c. Martin', statut: 'ouvert' };

/** What the refusing model says. */
export const REFUSAL_TEXT = 'Je ne peux pas répondre à cette demande.';

/** The words the circuit's corrective message must name, for the refused first answer. */
export const CORRECTION_PROBLEM = '"numero": must match pattern "^[A-Z]-[0-9]{4}$"';

/** One model answer of the scenario: a tool call turn, a structured answer, or a refusal. */
export type StructuredTurn =
  | { readonly calls: ConformanceTurn['calls'] }
  | { readonly answer: JsonObject }
  | { readonly refusal: string };

export interface StructuredOutputScenario {
  readonly id: StructuredOutputScenarioId;
  readonly title: string;
  readonly prompt: string;
  readonly turns: readonly StructuredTurn[];
}

export const STRUCTURED_OUTPUT_SCENARIOS: readonly StructuredOutputScenario[] = [
  {
    id: 'structured_answer',
    title: 'a tool call, then the answer in the structured format, validated and typed',
    prompt: 'Donne-moi la fiche du dossier A-1234.',
    turns: [{ calls: [{ name: 'chercher_dossier', arguments: { numero: 'A-1234' } }] }, { answer: CASE_FILE_ANSWER }],
  },
  {
    id: 'structured_correction',
    title:
      'an answer that fails the schema gets one corrective turn, without tool calls; the corrected one is returned',
    prompt: 'Donne-moi la fiche du dossier A-1234.',
    turns: [{ answer: { ...CASE_FILE_ANSWER, numero: '1234' } }, { answer: CASE_FILE_ANSWER }],
  },
  {
    id: 'structured_refusal',
    title: 'a refusal is a typed outcome, not a parse error, and asks nothing again',
    prompt: 'Donne-moi la fiche du dossier A-1234.',
    turns: [{ refusal: REFUSAL_TEXT }],
  },
];

/**
 * What the provider sends for an answer: OpenAI's strict mode requires every property, so an optional one
 * the model leaves out comes as `null` (the adapter restores it as omitted); elsewhere it is just absent.
 */
function wireAnswer(protocol: CassetteProtocol, answer: JsonObject): JsonObject {
  return protocol === 'openai-chat' || protocol === 'openai-responses' ? { ...answer, audience: null } : answer;
}

/** The neutral turn a scenario turn is on the wire, for the variant's way of carrying the answer. */
export function wireTurn(variant: StructuredOutputVariant, turn: StructuredTurn, answerName: string): ConformanceTurn {
  if ('calls' in turn) return { calls: turn.calls };
  if ('refusal' in turn) return { text: turn.refusal, calls: [] };
  const answer = wireAnswer(variant.protocol, turn.answer);
  return variant.mode === 'tool'
    ? { calls: [{ name: answerName, arguments: answer }] }
    : { text: JSON.stringify(answer), calls: [] };
}

export function structuredOutputCassetteName(variant: StructuredOutputVariant, id: StructuredOutputScenarioId): string {
  return `${variant.protocol}/${id}.${variant.mode}.generated`;
}

/**
 * The synthetic cassette of one scenario for one variant, from the scenario's turns in the wire's shape
 * (the conformance wires), the refusal in each provider's own shape. Deterministic.
 */
export function buildStructuredOutputCassette(
  variant: StructuredOutputVariant,
  scenario: StructuredOutputScenario,
): Cassette {
  const wire = conformanceWireOf(variant.protocol);
  return {
    format: 'toolcircuit-cassette/1',
    protocol: variant.protocol,
    provenance: {
      kind: 'synthetic',
      note:
        `Structured-output conformance scenario "${scenario.id}" (${scenario.title}) on ${variant.protocol}, answer ` +
        `carried ${variant.mode === 'tool' ? 'by the answer tool' : "in the provider's structured mode"}, generated ` +
        'by packages/testing/scripts/generate-conformance-cassettes.mjs from src/conformance/structured-output-scenario.ts. ' +
        'NOT real traffic: ids, signatures and token counts are made up. The response shape follows the recorded ' +
        `cassettes ${wire.shapeReferences.join(', ')}${variant.protocol === 'anthropic-messages' ? ' and anthropic/anthropic-sdk-python__TestAsyncParse__d743d628-16aa-4c9f-ae78-51deb578f746 (a structured answer)' : ''}. Requests hold only method and path; the scenario checks what the adapter sent.`,
    },
    model: variant.model,
    interactions: scenario.turns.map((turn, turnIndex) => {
      const position = {
        scenarioId: `${scenario.id}.${variant.mode}`,
        turnIndex,
        turn: wireTurn(variant, turn, 'final_answer'),
      };
      const body: JsonValue =
        'refusal' in turn ? refusalBody(variant.protocol, wire.responseBody(position)) : wire.responseBody(position);
      return {
        request: { method: 'POST', path: wire.path.replace(wire.model, variant.model) },
        response: { status: 200, headers: { ...wire.responseHeaders }, body: { kind: 'json', json: body } },
      };
    }),
  };
}
