import type { JsonValue } from '@toolcircuit/core';
import type { Interaction, RecordedBody } from '../cassettes/cassette.js';
import { isRecord } from '../cassettes/json-access.js';
import type { Conversion, SourceFile } from './source-file.js';
import {
  firstRequestModel,
  jsonOrString,
  RECORDED_HEADERS_NOTE,
  requestHeadersOf,
  responseHeadersOf,
  splitUrl,
  toJsonValue,
} from './wire-parts.js';

/**
 * anthropic-sdk-python snapshot `Test*.json`: `[{request:{method,url,headers,body}, response:{status_code,
 * headers,body}}]` as the SDK's recording helper wrote them; streaming bodies are raw SSE strings.
 */
export function convertExchangeList(file: SourceFile): Conversion {
  const parsed: unknown = JSON.parse(file.text);
  if (!Array.isArray(parsed) || parsed.length === 0) throw new Error('expected a non-empty list of exchanges');
  const interactions = parsed.map((item: unknown, index): Interaction => {
    const where = `[${index}]`;
    const request = isRecord(item) ? item['request'] : undefined;
    const response = isRecord(item) ? item['response'] : undefined;
    if (!isRecord(request) || !isRecord(response)) throw new Error(`${where}: request and response are required`);
    const status = response['status_code'];
    if (typeof status !== 'number') throw new Error(`${where}.response.status_code is not a number`);
    const body = requestBodyOf(request['body'], `${where}.request.body`);
    return {
      request: {
        method: String(request['method']).toUpperCase(),
        ...splitUrl(String(request['url'])),
        headers: requestHeadersOf(request['headers']),
        ...(body === undefined ? {} : { body }),
      },
      response: {
        status,
        headers: responseHeadersOf(response['headers']),
        body: responseBodyOf(response['body'], `${where}.response.body`),
      },
    };
  });
  const model = firstRequestModel(interactions);
  return {
    interactions,
    ...(model === undefined ? {} : { model }),
    notes: [
      'Exchange list recorded by the SDK test helper: method, URL, headers and bodies are as recorded; string bodies (SSE) are kept byte-exact as text.',
      RECORDED_HEADERS_NOTE,
    ],
  };
}

export function requestBodyOf(value: unknown, where: string): JsonValue | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string') return jsonOrString(value);
  return toJsonValue(value, where);
}

export function responseBodyOf(value: unknown, where: string): RecordedBody {
  if (typeof value === 'string') return { kind: 'text', text: value };
  return { kind: 'json', json: toJsonValue(value, where) };
}
