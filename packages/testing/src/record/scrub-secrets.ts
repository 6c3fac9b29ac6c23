/** What a scrubbed secret is replaced with, so a reader sees that a value was there. */
export const SCRUBBED = '[scrubbed]';

/**
 * Headers that carry credentials or identify an account. Matched case-insensitively. Organisation and
 * project ids are not keys, but they tie a committed file to someone's account.
 */
export const SECRET_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'x-goog-api-key',
  'api-key',
  'cookie',
  'set-cookie',
  'openai-organization',
  'openai-project',
  'anthropic-organization-id',
  'x-goog-user-project',
]);

/** Query parameters that carry keys (Gemini accepts `?key=`). */
export const SECRET_QUERY_PARAMS: ReadonlySet<string> = new Set([
  'key',
  'api_key',
  'api-key',
  'apikey',
  'access_token',
]);

export interface Scrubbed<T> {
  readonly value: T;
  /** The secret values that were removed, so callers can also erase them wherever else they appear. */
  readonly secrets: readonly string[];
}

/** Lower-cases header names and replaces every secret header's value with {@link SCRUBBED}. */
export function scrubHeaders(
  headers: Readonly<Record<string, string>>,
  extraSecretHeaders: readonly string[] = [],
): Scrubbed<Record<string, string>> {
  const extra = new Set(extraSecretHeaders.map((name) => name.toLowerCase()));
  const value: Record<string, string> = {};
  const secrets: string[] = [];
  for (const [name, headerValue] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (SECRET_HEADERS.has(lower) || extra.has(lower)) {
      value[lower] = SCRUBBED;
      secrets.push(...secretPartsOf(lower, headerValue));
    } else {
      value[lower] = headerValue;
    }
  }
  return { value, secrets };
}

export function scrubQuery(query: Readonly<Record<string, string>>): Scrubbed<Record<string, string>> {
  const value: Record<string, string> = {};
  const secrets: string[] = [];
  for (const [name, paramValue] of Object.entries(query)) {
    if (SECRET_QUERY_PARAMS.has(name.toLowerCase())) {
      value[name] = SCRUBBED;
      secrets.push(paramValue);
    } else {
      value[name] = paramValue;
    }
  }
  return { value, secrets };
}

// `Bearer sk-…` must also be caught when the bare key is echoed elsewhere (an error message, a URL).
function secretPartsOf(name: string, value: string): string[] {
  const parts = [value];
  if (name === 'authorization' || name === 'proxy-authorization') {
    const token = value.replace(/^\s*\w+\s+/, '');
    if (token !== value) parts.push(token);
  }
  return parts;
}

// Short values (`1`, `true`) would erase innocent text; real keys and cookies are long.
const MIN_SECRET_LENGTH = 8;

/**
 * Replaces every occurrence of the given secret values in every string of a JSON-like value. A last line
 * of defence: a key can come back inside a body (an error message quoting it, a redirect URL).
 */
export function eraseSecrets<T>(value: T, secrets: readonly string[]): T {
  const needles = [...new Set(secrets)].filter((secret) => secret.length >= MIN_SECRET_LENGTH);
  if (needles.length === 0) return value;
  // Longest first, so a key is erased before any shorter secret that is a part of it.
  needles.sort((a, b) => b.length - a.length);
  const erase = (input: unknown): unknown => {
    if (typeof input === 'string') return needles.reduce((text, needle) => text.split(needle).join(SCRUBBED), input);
    if (Array.isArray(input)) return input.map(erase);
    if (typeof input === 'object' && input !== null) {
      return Object.fromEntries(Object.entries(input).map(([key, item]) => [erase(key) as string, erase(item)]));
    }
    return input;
  };
  return erase(value) as T;
}
