import type { JsonValue } from '@toolcircuit/core';
import { arrayAt, isRecord, recordAt, stringAt } from '../cassettes/json-access.js';
import type { ConformanceWire, ExpectedResult, TurnPosition } from './conformance-wire.js';
import { syntheticBlob, syntheticToken } from './synthetic-token.js';

const MODEL = 'gemini-2.5-flash';

/**
 * Gemini generateContent: calls are `functionCall` parts with no id (the adapter makes one up) and decoded
 * `args` (absent for a call without arguments); `finishReason` is STOP even with calls; with thinking on,
 * the turn's first call part carries a `thoughtSignature` that must come back unchanged. Results go back as
 * ONE content holding one `functionResponse` part per call, in order, each with the function's name.
 * @see https://ai.google.dev/gemini-api/docs/function-calling
 */
export const geminiConformanceWire: ConformanceWire = {
  protocol: 'gemini',
  model: MODEL,
  path: `/v1beta/models/${MODEL}:generateContent`,
  shapeReferences: [
    'gemini/vertexai-sdk-test-data__unary-success-function-call-parallel-calls',
    'gemini/vercel-ai__google-tool-call',
    'gemini/vercel-ai__google-stream-no-args-tool-call.chunks',
  ],
  responseHeaders: { 'content-type': 'application/json; charset=UTF-8' },

  // The Gemini Developer API sends no call ids.
  callIds: (position) => position.turn.calls.map(() => undefined),

  responseBody(position) {
    const { turn, turnIndex } = position;
    const parts: JsonValue[] = [];
    if (turn.text !== undefined) parts.push({ text: turn.text });
    turn.calls.forEach((call, index) => {
      const hasArguments = Object.keys(call.arguments).length > 0;
      parts.push({
        functionCall: { name: call.name, ...(hasArguments ? { args: call.arguments } : {}) },
        ...(index === 0 ? { thoughtSignature: signatureOf(position) } : {}),
      });
    });
    const promptTokens = 140 + 70 * turnIndex;
    const candidatesTokens = 10 + 15 * turn.calls.length;
    const thoughtsTokens = 60;
    return {
      candidates: [
        {
          content: { parts, role: 'model' },
          finishReason: 'STOP',
          index: 0,
          ...(turn.calls.length > 0 ? { finishMessage: 'Model generated function call(s).' } : {}),
        },
      ],
      usageMetadata: {
        promptTokenCount: promptTokens,
        candidatesTokenCount: candidatesTokens,
        totalTokenCount: promptTokens + candidatesTokens + thoughtsTokens,
        promptTokensDetails: [{ modality: 'TEXT', tokenCount: promptTokens }],
        thoughtsTokenCount: thoughtsTokens,
      },
      modelVersion: MODEL,
      responseId: syntheticToken(seed(position, 'response'), 23),
    };
  },

  declaredToolNames: (body) =>
    arrayAt(body, 'tools').flatMap((tool) =>
      arrayAt(tool, 'functionDeclarations').map((declaration) => stringAt(declaration, 'name') ?? '(no name)'),
    ),

  replyProblems(body, previous, results) {
    const problems: string[] = [];
    const calls = previous.turn.calls;
    const contents = arrayAt(body, 'contents');
    const model = contents.at(-2);
    const reply = contents.at(-1);

    if (stringAt(model, 'role') !== 'model') problems.push('the content before the results is not the model turn');
    const callParts = arrayAt(model, 'parts').filter((part) => recordAt(part, 'functionCall') !== undefined);
    const calledNames = callParts.map((part) => stringAt(recordAt(part, 'functionCall'), 'name'));
    if (calledNames.join() !== calls.map((call) => call.name).join()) {
      problems.push(
        `the model turn re-sends calls to [${calledNames.join(', ')}], expected [${calls.map((c) => c.name).join(', ')}]`,
      );
    }
    if (calls.length > 0 && stringAt(callParts[0], 'thoughtSignature') !== signatureOf(previous)) {
      problems.push("the first re-sent functionCall part does not carry the turn's thoughtSignature unchanged");
    }

    // @google/genai sends role "user", the legacy @google/generative-ai "function".
    const role = stringAt(reply, 'role');
    if (role !== 'user' && role !== 'function') problems.push(`the results content has role ${String(role)}`);
    const parts = arrayAt(reply, 'parts');
    if (parts.length !== calls.length) {
      problems.push(
        `the results content has ${parts.length} part(s), expected one functionResponse per call (${calls.length})`,
      );
    }
    calls.forEach((call, index) => {
      const part = parts[index];
      const response = recordAt(part, 'functionResponse');
      if (response === undefined || (isRecord(part) && Object.keys(part).length !== 1)) {
        problems.push(`part ${index} of the results content is not a lone functionResponse`);
        return;
      }
      if (response['name'] !== call.name) {
        problems.push(`functionResponse ${index} is named ${String(response['name'])}, expected ${call.name}`);
      }
      const expected = results[index];
      const key = expected?.isError === true ? 'error' : 'output';
      const payload = recordAt(response, 'response');
      if (payload === undefined || Object.keys(payload).join() !== key) {
        problems.push(`functionResponse ${index} must hold only response.${key}`);
      } else if (!valueHolds(payload[key], expected)) {
        problems.push(`functionResponse ${index} does not carry the result`);
      }
    });
    return problems;
  },
};

function seed(position: TurnPosition, what: string): string {
  return `gemini/${position.scenarioId}/${position.turnIndex}/${what}`;
}

function signatureOf(position: TurnPosition): string {
  return syntheticBlob(seed(position, 'thought-signature'), 96);
}

/** A text result goes as a string; a single structured part as its JSON value (Gemini's response is a Struct). */
function valueHolds(value: JsonValue | undefined, expected: ExpectedResult | undefined): boolean {
  if (expected === undefined || value === undefined) return false;
  return typeof value === 'string' ? value.includes(expected.text) : JSON.stringify(value) === expected.text;
}
