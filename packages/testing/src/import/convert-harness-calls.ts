import type { Interaction } from '../cassettes/cassette.js';
import { arrayAt, isRecord, stringAt } from '../cassettes/json-access.js';
import { requestBodyOf, responseBodyOf } from './convert-exchange-list.js';
import type { Conversion, SourceFile } from './source-file.js';
import { firstRequestModel, splitUrl } from './wire-parts.js';

/** A vercel-ai harness capture: `{model, calls:[{request:{url, body}, response:{status, body}}]}`. */
export function convertHarnessCalls(file: SourceFile): Conversion {
  const parsed: unknown = JSON.parse(file.text);
  const calls = arrayAt(parsed, 'calls');
  if (calls.length === 0) throw new Error('expected a non-empty calls list');
  const interactions = calls.map((call, index): Interaction => {
    const where = `calls[${index}]`;
    const request = isRecord(call) ? call['request'] : undefined;
    const response = isRecord(call) ? call['response'] : undefined;
    if (!isRecord(request) || !isRecord(response)) throw new Error(`${where}: request and response are required`);
    const status = response['status'];
    if (typeof status !== 'number') throw new Error(`${where}.response.status is not a number`);
    const body = requestBodyOf(request['body'], `${where}.request.body`);
    return {
      request: { method: 'POST', ...splitUrl(String(request['url'])), ...(body === undefined ? {} : { body }) },
      response: {
        status,
        headers: { 'content-type': 'application/json' },
        body: responseBodyOf(response['body'], `${where}.response.body`),
      },
    };
  });
  const model = stringAt(parsed, 'model') ?? firstRequestModel(interactions);
  return {
    interactions,
    ...(model === undefined ? {} : { model }),
    notes: [
      'Test-harness wrapper around real request/response bodies: URL, request body, status and response body are as captured; the method is POST (a body was sent).',
      'The source stores no headers; content-type application/json was added to responses.',
    ],
  };
}
