import type { IncomingHttpHeaders } from 'node:http';

/**
 * Node's request headers as one string each (a repeated header joined with `, `, as HTTP allows), so a test
 * can compare them with `toEqual` and read them without checking for arrays.
 */
export function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}
