import type { Interaction } from '../cassettes/cassette.js';
import { isRecord } from '../cassettes/json-access.js';
import { requestBodyOf, responseBodyOf } from './convert-exchange-list.js';
import type { Conversion, SourceFile } from './source-file.js';
import { firstRequestModel, RECORDED_HEADERS_NOTE, responseHeadersOf, splitUrl } from './wire-parts.js';

/** A nock recording (anthropic-sdk-typescript): `[{scope, method, path, body, status, response, rawHeaders}]`. */
export function convertNockRecording(file: SourceFile): Conversion {
  const parsed: unknown = JSON.parse(file.text);
  if (!Array.isArray(parsed) || parsed.length === 0) throw new Error('expected a non-empty list of nock definitions');
  const interactions = parsed.map((item: unknown, index): Interaction => {
    const where = `[${index}]`;
    if (!isRecord(item)) throw new Error(`${where}: expected an object`);
    if (item['responseIsBinary'] === true) throw new Error(`${where}: binary responses are not supported`);
    const status = item['status'];
    if (typeof status !== 'number') throw new Error(`${where}.status is not a number`);
    const body = requestBodyOf(item['body'], `${where}.body`);
    return {
      request: {
        method: String(item['method']).toUpperCase(),
        ...splitUrl(String(item['path'])),
        ...(body === undefined ? {} : { body }),
      },
      response: {
        status,
        headers: responseHeadersOf(item['rawHeaders']),
        body: responseBodyOf(item['response'], `${where}.response`),
      },
    };
  });
  const model = firstRequestModel(interactions);
  return {
    interactions,
    ...(model === undefined ? {} : { model }),
    notes: [
      'nock recording: method, path, request body, status, response body and response headers are as recorded; nock stores no request headers.',
      RECORDED_HEADERS_NOTE,
    ],
  };
}
