import type { JsonTextCache } from '@toolcircuit/core';
import { sealEachForReuse, stringifyRequestBody } from '@toolcircuit/core/provider';
import { OpenAI } from 'openai';

// One cache for every model: the text of a sealed converted message or tool list depends on nothing else,
// and the conversions it is keyed by are themselves shared by all models (module-level caches).
const texts: JsonTextCache = new WeakMap();

/**
 * The body as the exact text the SDK would have made (`JSON.stringify(body)`), reusing the text of every
 * sealed converted message, input item and tool list already sent; `undefined` when this client must be
 * given the object. The object still goes to the SDK as `params`: it reads `stream` from there.
 */
export function requestBodyText(client: OpenAI, body: object): string | undefined {
  if (!sendsTextBodyVerbatim(client)) return undefined;
  return stringifyRequestBody(body as Readonly<Record<string, unknown>>, texts);
}

/** Seals each element (frozen shallowly) so that its text is reused: see {@link requestBodyText}. */
export function sealedElements<T extends object>(elements: T[]): T[] {
  return sealEachForReuse(elements);
}

// Only the SDK's own client is known to pass a string body through untouched (with a content-type). A
// subclass may read the body object: `AzureOpenAI.buildRequest` takes `body.model` for its deployment path
// and throws on a string, and any user subclass can do the same in its hooks. Those keep the object body.
function sendsTextBodyVerbatim(client: OpenAI): boolean {
  return Object.getPrototypeOf(client) === OpenAI.prototype;
}
