import type { JsonObject, JsonValue } from '@toolcircuit/core';
import { parseSse, type RecordedResponse } from '@toolcircuit/testing';

/**
 * An independent, deliberately simple reading of a recorded response: what a correct adapter must report.
 * It shares no code with the adapter, so the adapter's parsing is checked against the raw recorded bytes.
 */
export interface ExpectedCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
  /** How the request must declare the tool: a custom (text) tool, a built-in type, else a function. */
  readonly declared?: 'text' | 'apply_patch' | 'shell' | 'local_shell';
}

export type ExpectedOutcome =
  | {
      readonly kind: 'turn';
      readonly calls: readonly ExpectedCall[];
      readonly rawStop: string | null;
      /** Annotations on the answer's text (each a source). */
      readonly sources: number;
      /** Items of tools the provider ran (kept in the turn's hosted items), by type, in order. */
      readonly hosted: readonly string[];
    }
  | { readonly kind: 'error'; readonly status: number | undefined; readonly providerCode: string | undefined };

export function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asObjects(value: JsonValue | undefined): JsonObject[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

function str(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The JSON payloads of a body: one for a JSON body, one per SSE `data:` (without `[DONE]`) for a stream. */
export function payloadsOf(response: RecordedResponse): { readonly streaming: boolean; readonly items: JsonObject[] } {
  const body = response.body;
  if (body.kind === 'json') return { streaming: false, items: isObject(body.json) ? [body.json] : [] };
  const datas =
    body.kind === 'sse' ? body.events.map((event) => event.data) : parseSse(body.text).map((event) => event.data);
  const items: JsonObject[] = [];
  for (const data of datas) {
    if (data.startsWith('[DONE]')) continue;
    const parsed = JSON.parse(data) as JsonValue;
    if (isObject(parsed)) items.push(parsed);
  }
  return { streaming: true, items };
}

const parseArguments = (text: string): unknown => (text.trim() === '' ? {} : JSON.parse(text));

export function expectedChatOutcome(response: RecordedResponse): ExpectedOutcome {
  const { streaming, items } = payloadsOf(response);
  const error = items.map((item) => item['error']).find(isObject);
  if (response.status >= 400 || error !== undefined) {
    return {
      kind: 'error',
      status: response.status >= 400 ? response.status : undefined,
      providerCode: str(error?.['code']) ?? str(error?.['type']),
    };
  }
  if (!streaming) {
    const choice = asObjects(items[0]?.['choices'])[0];
    const message = isObject(choice?.['message']) ? choice['message'] : {};
    const calls = asObjects(message['tool_calls']).map((call) => {
      const fn = isObject(call['function']) ? call['function'] : {};
      return { id: String(call['id']), name: String(fn['name']), input: parseArguments(String(fn['arguments'])) };
    });
    const sources = asObjects(message['annotations']).filter((entry) => entry['type'] === 'url_citation').length;
    return { kind: 'turn', calls, rawStop: str(choice?.['finish_reason']) ?? null, sources, hosted: [] };
  }
  const byIndex = new Map<number, { id: string; name: string; args: string }>();
  let rawStop: string | null = null;
  let sources = 0;
  for (const chunk of items) {
    for (const choice of asObjects(chunk['choices'])) {
      if (choice['index'] !== 0) continue;
      rawStop = str(choice['finish_reason']) ?? rawStop;
      const delta = isObject(choice['delta']) ? choice['delta'] : {};
      sources += asObjects(delta['annotations']).filter((entry) => entry['type'] === 'url_citation').length;
      for (const fragment of asObjects(delta['tool_calls'])) {
        const index = Number(fragment['index']);
        const fn = isObject(fragment['function']) ? fragment['function'] : {};
        const call = byIndex.get(index) ?? { id: '', name: '', args: '' };
        call.id ||= str(fragment['id']) ?? '';
        call.name ||= str(fn['name']) ?? '';
        call.args += str(fn['arguments']) ?? '';
        byIndex.set(index, call);
      }
    }
  }
  const calls = [...byIndex.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, call]) => ({ id: call.id, name: call.name, input: parseArguments(call.args) }));
  return { kind: 'turn', calls, rawStop, sources, hosted: [] };
}

/** Calls of the built-in types the client runs: the catalogue tool's kind and the arguments' field. */
const BUILTIN_CALLS: Readonly<Record<string, { kind: 'apply_patch' | 'shell' | 'local_shell'; payload: string }>> = {
  apply_patch_call: { kind: 'apply_patch', payload: 'operation' },
  shell_call: { kind: 'shell', payload: 'action' },
  local_shell_call: { kind: 'local_shell', payload: 'action' },
};

/** The annotation types the adapter reads as sources. */
const SOURCE_ANNOTATIONS = new Set(['url_citation', 'file_citation', 'container_file_citation', 'file_path']);

export function expectedResponsesOutcome(response: RecordedResponse): ExpectedOutcome {
  const { streaming, items } = payloadsOf(response);
  if (response.status >= 400) {
    const error = isObject(items[0]?.['error']) ? items[0]['error'] : undefined;
    return { kind: 'error', status: response.status, providerCode: str(error?.['code']) ?? str(error?.['type']) };
  }
  const final = streaming
    ? items
        .map((event) => event['response'])
        .filter(isObject)
        .at(-1)
    : items[0];
  const failure = streaming
    ? items.find((event) => event['type'] === 'error' || event['type'] === 'response.failed')
    : undefined;
  if (failure !== undefined) {
    const error = isObject(failure['error']) ? failure['error'] : isObject(final?.['error']) ? final['error'] : {};
    return { kind: 'error', status: undefined, providerCode: str(error['code']) ?? str(error['type']) };
  }
  const output = asObjects(final?.['output']);
  const answered = new Set(
    output.filter((item) => String(item['type']).endsWith('_output')).map((item) => str(item['call_id'])),
  );
  const calls: ExpectedCall[] = [];
  const hosted: string[] = [];
  let sources = 0;
  for (const item of output) {
    const type = String(item['type']);
    const builtin = BUILTIN_CALLS[type];
    if (type === 'function_call') {
      calls.push({
        id: String(item['call_id']),
        name: String(item['name']),
        input: parseArguments(String(item['arguments'])),
      });
    } else if (type === 'custom_tool_call') {
      calls.push({ id: String(item['call_id']), name: String(item['name']), input: item['input'], declared: 'text' });
    } else if (builtin !== undefined && !answered.has(str(item['call_id']))) {
      calls.push({
        id: String(item['call_id']),
        name: builtin.kind,
        input: item[builtin.payload],
        declared: builtin.kind,
      });
    } else if (type !== 'message' && type !== 'reasoning') {
      hosted.push(type);
    }
    for (const part of asObjects(item['content'])) {
      sources += asObjects(part['annotations']).filter((entry) => SOURCE_ANNOTATIONS.has(String(entry['type']))).length;
    }
  }
  const status = str(final?.['status']);
  const reason = isObject(final?.['incomplete_details']) ? str(final['incomplete_details']['reason']) : undefined;
  return {
    kind: 'turn',
    calls,
    rawStop: status === undefined ? null : reason === undefined ? status : `${status}:${reason}`,
    sources,
    hosted,
  };
}
