import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  continueLoop,
  createCatalogue,
  createSession,
  InMemoryJournal,
  type InterruptedRun,
  InvalidLoopOptionsError,
  InvalidOutputSchemaError,
  jsonDigest,
  type LoopStreamEvent,
  type Message,
  type ModelTurn,
  OutputValidationError,
  ProviderError,
  resumeLoop,
  runLoop,
  streamLoop,
  type UserMessage,
} from '../../src/index.js';
import { chercherDossier, paymentWorld } from '../fixtures.js';
import { call, callsTurn, scripted, streaming, textTurn } from '../support.js';

const user: Message[] = [{ role: 'user', content: 'Résume le dossier A-1234.' }];
const session = createSession({ id: 's', humanId: 'ana', rights: ['dossiers:lire'] });
const catalogue = createCatalogue([chercherDossier]);

/** The answer the runs ask for: a literal, so `result.output` is inferred from it. */
const summary = {
  type: 'object',
  properties: {
    numero: { type: 'string', pattern: '^[A-Z]-[0-9]{4}$' },
    statut: { enum: ['ouvert', 'clos'] },
    note: { type: 'string' },
  },
  required: ['numero', 'statut'],
  additionalProperties: false,
} as const;

function refusalTurn(text: string, unified: 'refusal' | 'content_filter' = 'refusal'): ModelTurn {
  return { ...textTurn(text), stopReason: { unified, raw: unified } };
}

function correctionText(request: { messages: readonly Message[] } | undefined): string {
  const last = request?.messages.at(-1) as UserMessage | undefined;
  return typeof last?.content === 'string' ? last.content : (last?.content.map((part) => part.text).join('') ?? '');
}

describe('runLoop with output: tools, then a structured answer', () => {
  it('runs the calls, then returns the validated answer, typed; every request carries the format', async () => {
    const model = scripted([
      callsTurn([call('c1', 'chercher_dossier', { numero: 'A-1234' })]),
      textTurn('{"numero":"A-1234","statut":"ouvert"}'),
    ]);
    const journal = new InMemoryJournal();
    const result = await runLoop({ model, catalogue, session, messages: user, journal, output: { schema: summary } });
    expect(result.status).toBe('completed');
    expect(result.output).toEqual({ numero: 'A-1234', statut: 'ouvert' });
    expect(result.refusal).toBeUndefined();
    expectTypeOf(result.output).toEqualTypeOf<
      { numero: string; statut: 'ouvert' | 'clos'; note?: string } | undefined
    >();
    for (const request of model.requests) {
      expect(request.output).toEqual({ name: 'final_answer', schema: summary, strict: true });
      expect(request.toolChoice).toBeUndefined();
      expect(request.tools.map((tool) => tool.name)).toEqual(['chercher_dossier']);
    }
    // The calls are journaled with the digest of the schema the answer is checked against.
    expect(journal.entries).toHaveLength(1);
    expect(journal.entries[0]?.outputSchemaDigest).toBe(jsonDigest(summary));
  });

  it('a Zod schema: its own validation and transforms, its output type', async () => {
    const schema = z.object({ numero: z.string(), montant: z.string().transform((text) => Number(text)) });
    const model = scripted([textTurn('{"numero":"A-1234","montant":"12.5"}')]);
    const result = await runLoop({ model, catalogue, session, messages: user, output: { schema, name: 'resume' } });
    expect(result.output).toEqual({ numero: 'A-1234', montant: 12.5 });
    expectTypeOf(result.output).toEqualTypeOf<{ numero: string; montant: number } | undefined>();
    expect(model.requests[0]?.output?.name).toBe('resume');
    expect(model.requests[0]?.output?.schema).toMatchObject({ type: 'object', required: ['numero', 'montant'] });
  });

  it('reads an answer wrapped in one Markdown code fence, and nothing looser', async () => {
    const model = scripted([textTurn('```json\n{"numero":"A-1234","statut":"clos"}\n```')]);
    const result = await runLoop({ model, catalogue, session, messages: user, output: { schema: summary } });
    expect(result.output).toEqual({ numero: 'A-1234', statut: 'clos' });
  });
});

describe('an answer that does not validate', () => {
  it('gets one corrective turn naming what is wrong, asked without tool calls; the corrected answer is returned', async () => {
    const model = scripted([
      textTurn('{"numero":"1234","statut":"ouvert"}'),
      textTurn('{"numero":"A-1234","statut":"ouvert"}'),
    ]);
    const result = await runLoop({ model, catalogue, session, messages: user, output: { schema: summary } });
    expect(result.output).toEqual({ numero: 'A-1234', statut: 'ouvert' });
    expect(model.requests).toHaveLength(2);
    const correction = correctionText(model.requests[1]);
    expect(correction).toContain('"numero": must match pattern "^[A-Z]-[0-9]{4}$"');
    expect(correction).toContain('without calling tools');
    expect(model.requests[1]?.toolChoice).toBe('none');
    expect(model.requests[1]?.output?.name).toBe('final_answer');
    // The refused answer and the correction stay in the conversation, in order.
    expect(result.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('text that is not JSON is corrected the same way', async () => {
    const model = scripted([textTurn('Le dossier est ouvert.'), textTurn('{"numero":"A-1234","statut":"ouvert"}')]);
    const result = await runLoop({ model, catalogue, session, messages: user, output: { schema: summary } });
    expect(result.output).toEqual({ numero: 'A-1234', statut: 'ouvert' });
    expect(correctionText(model.requests[1])).toContain('is not valid JSON');
  });

  it('a second refused answer throws OutputValidationError with the raw text and the issues: never a cast', async () => {
    const model = scripted([textTurn('{"numero":"A-1234"}'), textTurn('{"numero":"A-1234","statut":"perdu"}')]);
    const failure = await runLoop({ model, catalogue, session, messages: user, output: { schema: summary } }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(OutputValidationError);
    const error = failure as OutputValidationError;
    expect(error.rawText).toBe('{"numero":"A-1234","statut":"perdu"}');
    expect(error.issues).toEqual([{ path: ['statut'], message: 'must be one of ["ouvert","clos"]' }]);
    expect(error.parseError).toBeUndefined();
    expect(error.code).toBe('output_validation_failed');
    expect(model.requests).toHaveLength(2);
  });

  it('throws at once when the turn limit leaves no turn for the correction', async () => {
    const model = scripted([callsTurn([call('c1', 'chercher_dossier', { numero: 'A-1234' })]), textTurn('nope')]);
    const failure = await runLoop({
      model,
      catalogue,
      session,
      messages: user,
      maxTurns: 2,
      output: { schema: summary },
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OutputValidationError);
    expect((failure as OutputValidationError).parseError).toContain('JSON');
    expect(model.requests).toHaveLength(2);
  });
});

describe('a turn the provider paused', () => {
  it('is no answer yet: sent back as it is, with no corrective turn; the answer after it is validated', async () => {
    // Anthropic's `pause_turn`: a long server-tool turn cut in two, its text only a start.
    const paused: ModelTurn = { ...textTurn('Je cherche'), stopReason: { unified: 'pause', raw: 'pause_turn' } };
    const model = scripted([paused, textTurn('{"numero":"A-1234","statut":"clos"}')]);
    const result = await runLoop({ model, catalogue, session, messages: user, output: { schema: summary } });
    expect(result.status).toBe('completed');
    expect(result.output).toEqual({ numero: 'A-1234', statut: 'clos' });
    expect(model.requests).toHaveLength(2);
    // The second request ends with the paused turn itself, not with a correction asking for the format.
    expect(model.requests[1]?.messages.at(-1)?.role).toBe('assistant');
  });
});

describe('a refusal', () => {
  it('is a typed outcome: no output, the refusal and its text, no corrective turn', async () => {
    const model = scripted([refusalTurn('I cannot help with that.')]);
    const result = await runLoop({ model, catalogue, session, messages: user, output: { schema: summary } });
    expect(result.status).toBe('completed');
    expect(result.output).toBeUndefined();
    expect(result.refusal).toEqual({ reason: 'refusal', text: 'I cannot help with that.' });
    expect(model.requests).toHaveLength(1);
  });

  it("the provider's content filter is one too", async () => {
    const model = scripted([refusalTurn('', 'content_filter')]);
    const result = await runLoop({ model, catalogue, session, messages: user, output: { schema: summary } });
    expect(result.refusal).toEqual({ reason: 'content_filter', text: '' });
  });
});

describe('the output option is checked before anything is sent', () => {
  it.each([
    [{ schema: { type: 'array', items: { type: 'string' } } }, 'its root is not an object (found type "array")'],
    [{ schema: { type: 'object', properties: { a: { type: 'strin' } } } }, 'schema is invalid'],
    [{ schema: summary, name: 'final answer' }, '`output.name` "final answer"'],
    [{ schema: summary, strict: 'yes' }, '`output.strict`'],
  ])('%j', async (output, message) => {
    const model = scripted([]);
    const run = () => runLoop({ model, catalogue, session, messages: user, output: output as never });
    await expect(run()).rejects.toThrow(InvalidOutputSchemaError);
    await expect(run()).rejects.toThrow(message);
    expect(model.requests).toHaveLength(0);
  });
});

it('an answer named like a catalogue tool is refused (the answer may travel as a tool of that name)', async () => {
  const model = scripted([]);
  const run = runLoop({
    model,
    catalogue,
    session,
    messages: user,
    output: { schema: summary, name: 'chercher_dossier' },
  });
  await expect(run).rejects.toThrow(InvalidLoopOptionsError);
  await expect(run).rejects.toThrow('"chercher_dossier" is the name of a catalogue tool');
});

describe('after a resume or a continue, the answer is still settled', () => {
  it('resumeLoop with the same options validates the final answer (a pause before it)', async () => {
    const { catalogue: payments, session: marie } = paymentWorld();
    const receipt = z.object({ virement: z.enum(['effectué', 'refusé']), montant: z.number() });
    const output = { schema: receipt };
    const first = scripted([callsTurn([call('pay', 'virement', { amount: 10, to: 'bob' })])]);
    const paused = await runLoop({
      model: first,
      catalogue: payments,
      session: marie,
      messages: [{ role: 'user', content: 'Paie 10 à Bob.' }],
      confirmation: 'pause',
      output,
    });
    expect(paused.status).toBe('paused');
    const model = scripted([
      textTurn('{"virement":"effectué","montant":"10"}'),
      textTurn('{"virement":"effectué","montant":10}'),
    ]);
    const resumed = await resumeLoop(
      paused.paused as NonNullable<typeof paused.paused>,
      (paused.paused?.pending ?? []).map((pending) => ({
        callId: pending.callId,
        approved: true,
        inputDigest: pending.inputDigest,
      })),
      { model, catalogue: payments, session: marie, output },
    );
    expect(resumed.output).toEqual({ virement: 'effectué', montant: 10 });
    expect(model.requests.map((request) => request.output?.name)).toEqual(['final_answer', 'final_answer']);
    expect(model.requests[1]?.toolChoice).toBe('none');
  });

  it('continueLoop after the corrective request failed asks "answer now" again, and corrects no second time', async () => {
    const output = { schema: summary };
    const failing = scripted([
      textTurn('{"numero":"A-1234"}'),
      () => {
        throw new ProviderError({ provider: 'test', code: 'overloaded', message: 'busy', retryable: true });
      },
    ]);
    const error = await runLoop({ model: failing, catalogue, session, messages: user, output }).catch(
      (thrown: unknown) => thrown,
    );
    const interrupted = (error as { interrupted?: InterruptedRun }).interrupted as InterruptedRun;
    // Through JSON, as a store keeps it.
    const stored = JSON.parse(JSON.stringify(interrupted)) as InterruptedRun;
    const model = scripted([textTurn('{"numero":"A-1234","statut":"fermé"}')]);
    const failure = await continueLoop(stored, { model, catalogue, session, output }).catch(
      (thrown: unknown) => thrown,
    );
    expect(model.requests[0]?.toolChoice).toBe('none');
    expect(failure).toBeInstanceOf(OutputValidationError);
    expect(model.requests).toHaveLength(1);
  });
});

describe('streamLoop with output', () => {
  it('shows the answer as partial objects while it streams, then returns the validated one', async () => {
    const answer = '{"numero":"A-1234","statut":"ouvert","note":"Audience le 3 mars."}';
    const model = streaming([callsTurn([call('c1', 'chercher_dossier', { numero: 'A-1234' })]), textTurn(answer)], 4);
    const stream = streamLoop({ model, catalogue, session, messages: user, output: { schema: summary } });
    const partials: unknown[] = [];
    const types: LoopStreamEvent['type'][] = [];
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'output-partial') partials.push(event.partial);
    }
    const result = await stream.result;
    expect(result.output).toEqual(JSON.parse(answer));
    expectTypeOf(result.output).toEqualTypeOf<
      { numero: string; statut: 'ouvert' | 'clos'; note?: string } | undefined
    >();
    // Growing previews, each a prefix of the answer's fields, the last one the whole answer.
    expect(partials.length).toBeGreaterThan(5);
    expect(partials).toContainEqual({ numero: 'A-123' });
    expect(partials).toContainEqual({ numero: 'A-1234', statut: 'ouvert', note: 'Audience le' });
    expect(partials.at(-1)).toEqual(JSON.parse(answer));
    expect(new Set(partials.map((partial) => JSON.stringify(partial))).size).toBe(partials.length);
    // Each partial right after the delta that grew it, and only in the answer's turn.
    expect(types.indexOf('output-partial')).toBeGreaterThan(types.lastIndexOf('reply'));
  });

  it('without output, no partial events', async () => {
    const model = streaming([textTurn('{"numero":"A-1234"}')], 4);
    const stream = streamLoop({ model, catalogue, session, messages: user });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types).not.toContain('output-partial');
    expect((await stream.result).output).toBeUndefined();
  });
});
