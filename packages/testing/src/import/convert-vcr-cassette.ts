import { gunzipSync } from 'node:zlib';
import { parse } from 'yaml';
import type { Interaction, RecordedBody, RecordedRequest } from '../cassettes/cassette.js';
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

/** A VCR.py cassette (pydantic-ai, llm-anthropic, llm-gemini): full requests and responses. */
export function convertVcrCassette(file: SourceFile): Conversion {
  // PyYAML wrote these files. It quotes every string that YAML 1.1 would read as another type, and writes
  // only true/false/null/decimal numbers plain, so the 1.2 core schema reads them as PyYAML does. The yaml
  // package's 1.1 schema would not: it turns keys like `n` into booleans, which PyYAML never does.
  const document: unknown = parse(file.text, { customTags: ['binary'] });
  const raw = isRecord(document) ? document['interactions'] : undefined;
  if (!Array.isArray(raw) || raw.length === 0) throw new Error('a VCR cassette needs a non-empty interactions list');
  const notes = ['VCR.py cassette: method, URL, headers and bodies are as recorded.', RECORDED_HEADERS_NOTE];
  const decoded = decodedCompanion(file);
  let sawParsedBody = false;
  let sawRawBody = false;

  const interactions = raw.map((item: unknown, index): Interaction => {
    const where = `interactions[${index}]`;
    const entry = item as { request?: Record<string, unknown>; response?: Record<string, unknown> };
    const request = entry.request;
    const response = entry.response;
    if (!isRecord(request) || !isRecord(response)) throw new Error(`${where}: request and response are required`);
    const uri = String(request['uri']);
    const requestBody =
      'parsed_body' in request
        ? toJsonValue(request['parsed_body'], `${where}.request.parsed_body`)
        : typeof request['body'] === 'string' && request['body'] !== ''
          ? jsonOrString(request['body'])
          : undefined;
    const recordedRequest: RecordedRequest = {
      method: String(request['method']).toUpperCase(),
      ...splitUrl(uri),
      headers: requestHeadersOf(request['headers']),
      ...(requestBody === undefined ? {} : { body: requestBody }),
    };
    let body: RecordedBody;
    const rawBody = response['body'];
    const bodyString = isRecord(rawBody) ? (rawBody as Record<string, unknown>)['string'] : undefined;
    if ('parsed_body' in response) {
      sawParsedBody = true;
      body = { kind: 'json', json: toJsonValue(response['parsed_body'], `${where}.response.parsed_body`) };
    } else if (typeof bodyString === 'string') {
      sawRawBody = true;
      body = { kind: 'text', text: bodyString };
    } else if (bodyString instanceof Uint8Array) {
      body = { kind: 'text', text: decodedBody(decoded, index, uri, bodyString, response['headers']) };
    } else {
      throw new Error(`${where}.response: neither parsed_body nor body.string`);
    }
    const status = isRecord(response['status']) ? response['status']['code'] : undefined;
    if (typeof status !== 'number') throw new Error(`${where}.response.status.code is not a number`);
    return {
      request: recordedRequest,
      response: { status, headers: responseHeadersOf(response['headers']), body },
    };
  });

  if (sawParsedBody) {
    notes.push(
      'JSON bodies come from pydantic-ai parsed_body, whose serializer re-sorted keys alphabetically: key order is not the wire order.',
    );
  }
  if (sawRawBody) notes.push('Bodies stored as body.string (SSE, raw JSON) are kept byte-exact as text.');
  if (decoded !== undefined) {
    notes.push(
      `Response bodies are gzip !!binary in the cassette; their text is taken from ${decoded.file.entry.dest} (DERIVED), and checked equal to gunzip of the binary.`,
    );
  }
  const model = firstRequestModel(interactions);
  return {
    interactions,
    ...(model === undefined ? {} : { model }),
    notes,
    ...(decoded === undefined ? {} : { companions: [decoded.file] }),
  };
}

interface DecodedCompanion {
  readonly file: SourceFile;
  readonly bodies: readonly { readonly uri: string; readonly body: string }[];
}

function decodedCompanion(file: SourceFile): DecodedCompanion | undefined {
  const companion = file.companion(file.name.replace(/\.yaml$/, '.DERIVED-decoded-bodies.json'));
  if (companion === undefined) return undefined;
  const parsed: unknown = JSON.parse(companion.text);
  if (!Array.isArray(parsed)) throw new Error(`${companion.entry.dest}: expected a list of {uri, status, body}`);
  const bodies = parsed.map((row: unknown, index) => {
    if (!isRecord(row) || typeof row['uri'] !== 'string' || typeof row['body'] !== 'string') {
      throw new Error(`${companion.entry.dest}[${index}]: expected {uri, body} strings`);
    }
    return { uri: row['uri'], body: row['body'] };
  });
  return { file: companion, bodies };
}

function decodedBody(
  decoded: DecodedCompanion | undefined,
  index: number,
  uri: string,
  binary: Uint8Array,
  headers: unknown,
): string {
  const row = decoded?.bodies[index];
  if (decoded === undefined || row === undefined) {
    throw new Error(`interactions[${index}]: binary body and no DERIVED decoded copy to read it from`);
  }
  if (row.uri !== uri) throw new Error(`interactions[${index}]: DERIVED copy is for ${row.uri}, not ${uri}`);
  const gzip = /gzip/i.test(responseEncoding(headers));
  // Trust the DERIVED text only after checking it is exactly what the recorded binary decodes to.
  const text = gzip ? gunzipSync(binary).toString('utf8') : Buffer.from(binary).toString('utf8');
  if (text !== row.body) throw new Error(`interactions[${index}]: DERIVED text differs from the recorded binary`);
  return row.body;
}

function responseEncoding(headers: unknown): string {
  if (!isRecord(headers)) return '';
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === 'content-encoding') return Array.isArray(value) ? value.join(',') : String(value);
  }
  return '';
}
