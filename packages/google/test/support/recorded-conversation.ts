import {
  type JsonObject,
  type JsonValue,
  type Message,
  type ModelTurn,
  type ToolDeclaration,
  type ToolResultPart,
  toolCallsOf,
} from '@toolcircuit/core';
import { type Cassette, parseSse, type RecordedBody } from '@toolcircuit/testing';

/** Small readers for recorded JSON, which is untyped by nature. */
export function asObject(value: JsonValue | undefined): JsonObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
}

export function asArray(value: JsonValue | undefined): JsonValue[] {
  return Array.isArray(value) ? value : [];
}

/** Recorded `parameters` use upper-case OpenAPI types (`STRING`); neutral schemas are JSON Schema. */
function toJsonSchema(schema: JsonValue): JsonValue {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  const object = asObject(schema);
  if (object === undefined) return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(object)) {
    out[key] = key === 'type' && typeof value === 'string' ? value.toLowerCase() : toJsonSchema(value);
  }
  return out;
}

/** The responses a recorded body holds: one for JSON, one per SSE chunk for a stream. */
export function recordedChunks(body: RecordedBody): JsonValue[] {
  if (body.kind === 'json') return [body.json];
  const datas =
    body.kind === 'sse' ? body.events.map((event) => event.data) : parseSse(body.text).map((event) => event.data);
  return datas.flatMap((data) => {
    try {
      return [JSON.parse(data) as JsonValue];
    } catch {
      return [];
    }
  });
}

/**
 * The named function calls of a response (or of all chunks of a stream), with their args. A Vertex
 * streamed-arguments call (`willContinue`) has no args here: its pieces come in later chunks.
 */
export function recordedCalls(
  chunks: readonly JsonValue[],
): { name: string; args: JsonValue | undefined; streamed: boolean }[] {
  return chunks.flatMap((chunk) => {
    const candidate = asObject(asArray(asObject(chunk)?.['candidates'])[0]);
    return asArray(asObject(candidate?.['content'])?.['parts']).flatMap((part) => {
      const call = asObject(asObject(part)?.['functionCall']);
      const name = call?.['name'];
      return typeof name === 'string'
        ? [{ name, args: call?.['args'], streamed: call?.['willContinue'] === true }]
        : [];
    });
  });
}

/** Tool declarations as the recording sent them, or (no request stored) one per function the model called. */
export function recordedTools(cassette: Cassette, responses: readonly (readonly JsonValue[])[]): ToolDeclaration[] {
  const body = asObject(cassette.interactions[0]?.request.body);
  const declarations = asArray(asObject(asArray(body?.['tools'])[0])?.['functionDeclarations']);
  if (declarations.length > 0) {
    return declarations.map((declaration) => {
      const object = asObject(declaration) ?? {};
      const schema = object['parameters'] ?? object['parametersJsonSchema'] ?? object['parameters_json_schema'];
      return {
        name: String(object['name']),
        description: typeof object['description'] === 'string' ? object['description'] : '',
        inputSchema: asObject(schema === undefined ? undefined : toJsonSchema(schema)) ?? {
          type: 'object',
          properties: {},
        },
      };
    });
  }
  const names = new Set(responses.flatMap((response) => recordedCalls(response).map((call) => call.name)));
  return [...names].map((name) => ({ name, description: '', inputSchema: { type: 'object', properties: {} } }));
}

export function recordedSystem(cassette: Cassette): string | undefined {
  const instruction = asObject(asObject(cassette.interactions[0]?.request.body)?.['systemInstruction']);
  const texts = asArray(instruction?.['parts']).map((part) => asObject(part)?.['text']);
  return texts.length === 0 ? undefined : texts.filter((text) => typeof text === 'string').join('');
}

/**
 * Rebuilds the neutral history a recorded request carries: user texts as they were, each `model`
 * content replaced by OUR turn for that response, and each functionResponse content turned into one
 * tool message whose results answer our calls in order (content: the recorded response object as JSON).
 */
export function recordedHistory(contents: readonly JsonValue[], turns: readonly ModelTurn[]): Message[] {
  const messages: Message[] = [];
  let modelTurns = 0;
  let lastTurn: ModelTurn | undefined;
  for (const content of contents) {
    const object = asObject(content) ?? {};
    const parts = asArray(object['parts']).map((part) => asObject(part) ?? {});
    if (object['role'] === 'model') {
      lastTurn = turns[modelTurns];
      modelTurns += 1;
      if (lastTurn === undefined) throw new Error('the recording has more model turns than we replayed');
      messages.push({ role: 'assistant', content: lastTurn.content });
      continue;
    }
    const responses = parts.flatMap((part) => {
      const response = asObject(part['functionResponse']);
      return response === undefined ? [] : [response];
    });
    if (responses.length > 0) {
      const calls = lastTurn === undefined ? [] : toolCallsOf(lastTurn.content);
      const results = responses.map((response, index): ToolResultPart => {
        const body = asObject(response['response']) ?? {};
        return {
          type: 'tool_result',
          callId: calls[index]?.id ?? `missing-${index}`,
          name: String(response['name']),
          content: JSON.stringify(body),
          isError: Object.keys(body).some((key) => key.includes('error')),
        };
      });
      messages.push({ role: 'tool', content: results });
      continue;
    }
    const text = parts.map((part) => (typeof part['text'] === 'string' ? part['text'] : '')).join('');
    messages.push({ role: 'user', content: text });
  }
  return messages;
}

/**
 * Where the function parts sit: per content, its role (`function`, the legacy SDK's role for results,
 * counts as `user`, which is what the recordings used) and its functionCall / functionResponse parts,
 * with whether each call carries a thoughtSignature. Text parts and ids are left out: our ids stay
 * private when synthesised, and free text around results is not part of the placement rule.
 */
export function functionPartPlacement(contents: readonly JsonValue[]): { role: string; parts: string[] }[] {
  return contents.map((content) => {
    const object = asObject(content) ?? {};
    const role = object['role'] === 'function' ? 'user' : String(object['role'] ?? 'user');
    const parts = asArray(object['parts']).flatMap((part) => {
      const value = asObject(part) ?? {};
      const call = asObject(value['functionCall']);
      if (call !== undefined) return [`call:${String(call['name'])}${'thoughtSignature' in value ? '+signature' : ''}`];
      const response = asObject(value['functionResponse']);
      return response === undefined ? [] : [`response:${String(response['name'])}`];
    });
    return { role, parts };
  });
}
