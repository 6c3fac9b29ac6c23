import type { JsonValue } from '@toolcircuit/core';
import type { Interaction } from '../cassettes/cassette.js';
import { isRecord, stringAt } from '../cassettes/json-access.js';
import { scrubHeaders, scrubQuery } from '../record/scrub-secrets.js';

// Shared pieces of the converters: header maps, URLs, and the model id found in bodies and paths.

// Stored bodies are decoded and re-framed, so headers about the original transfer would lie on replay.
const TRANSFER_HEADERS = new Set(['content-length', 'content-encoding', 'transfer-encoding']);

/** The provenance sentence for headers that went through {@link requestHeadersOf} / {@link responseHeadersOf}. */
export const RECORDED_HEADERS_NOTE =
  'Header names were lower-cased, credential and account headers scrubbed, and content-length/content-encoding/transfer-encoding dropped because bodies are stored decoded.';

/** Lower-case names, list values joined with ", " (VCR and nock store lists), secrets scrubbed. */
export function requestHeadersOf(raw: unknown): Record<string, string> {
  return scrubHeaders(flattenHeaders(raw)).value;
}

/** As {@link requestHeadersOf}, and without transfer headers: stored bodies are decoded. */
export function responseHeadersOf(raw: unknown): Record<string, string> {
  const headers = scrubHeaders(flattenHeaders(raw)).value;
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !TRANSFER_HEADERS.has(name)));
}

function flattenHeaders(raw: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (Array.isArray(raw)) {
    // nock's rawHeaders may be a flat [name, value, name, value…] list.
    for (let index = 0; index + 1 < raw.length; index += 2) add(out, String(raw[index]), raw[index + 1]);
    return out;
  }
  if (isRecord(raw)) for (const [name, value] of Object.entries(raw)) add(out, name, value);
  return out;
}

function add(out: Record<string, string>, name: string, value: unknown): void {
  const text = Array.isArray(value) ? value.map(String).join(', ') : String(value);
  const key = name.toLowerCase();
  out[key] = out[key] === undefined ? text : `${out[key]}, ${text}`;
}

/** Path and scrubbed query of a recorded URL (absolute, or a path with a query as nock stores it). */
export function splitUrl(url: string): { path: string; query?: Record<string, string> } {
  const parsed = new URL(url, 'https://placeholder.invalid');
  const query = scrubQuery(Object.fromEntries(parsed.searchParams)).value;
  return Object.keys(query).length > 0 ? { path: parsed.pathname, query } : { path: parsed.pathname };
}

/** Parses a JSON request body stored as a string; a body that is not JSON stays the string. */
export function jsonOrString(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

/** The model a request asked for: body.model (Anthropic, OpenAI) or the Gemini path segment. */
export function requestModel(path: string, body: JsonValue | undefined): string | undefined {
  const fromBody = stringAt(body, 'model');
  if (fromBody !== undefined) return fromBody;
  return /\/models\/([^/:]+):/.exec(path)?.[1];
}

/** The model the first recorded request asked for: a cassette is named after it. */
export function firstRequestModel(interactions: readonly Interaction[]): string | undefined {
  const first = interactions[0];
  return first === undefined ? undefined : requestModel(first.request.path, first.request.body);
}

/** The model a response names: body.model, message_start's message.model, or Gemini's modelVersion. */
export function responseModel(payload: unknown): string | undefined {
  if (!isRecord(payload)) return undefined;
  const message = payload['message'];
  return (
    stringAt(payload, 'model') ??
    stringAt(payload, 'modelVersion') ??
    stringAt(message, 'model') ??
    stringAt(payload['response'], 'model')
  );
}

/** Converts what a YAML parser produced into JSON, refusing anything JSON cannot hold (dates, bytes). */
export function toJsonValue(value: unknown, where: string): JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`${where}: ${value} is not a JSON number`);
    return value;
  }
  if (Array.isArray(value)) return value.map((item, index) => toJsonValue(item, `${where}[${index}]`));
  if (isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toJsonValue(item, `${where}.${key}`)]));
  }
  throw new Error(`${where}: a ${Object.prototype.toString.call(value)} cannot be stored as JSON`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
