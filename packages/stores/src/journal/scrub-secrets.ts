import { canonicalJson } from '@toolcircuit/core';

/** What replaces a secret in a journal record. */
export const REDACTED = '[redacted]';

// Shapes of credentials that end up in tool arguments and error messages by accident. Each keeps the
// recognisable prefix (so the operator sees what kind of secret was there) and drops the rest.
const PATTERNS: readonly { readonly pattern: RegExp; readonly replace: string }[] = [
  { pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g, replace: REDACTED },
  { pattern: /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, replace: `$1 ${REDACTED}` },
  { pattern: /\b(sk|pk|rk)-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{16,}/g, replace: `$1-${REDACTED}` },
  { pattern: /\bAIza[0-9A-Za-z_-]{30,}/g, replace: REDACTED },
  { pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, replace: REDACTED },
  { pattern: /\b(gh[pousr]_)[A-Za-z0-9]{20,}/g, replace: `$1${REDACTED}` },
  { pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, replace: REDACTED },
  { pattern: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, replace: REDACTED },
  // user:password@ in URLs (postgres://app:hunter2@db/...)
  { pattern: /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]+@/gi, replace: `$1${REDACTED}@` },
  // key=value / "key": "value" for names that say "secret"
  {
    pattern:
      /\b((?:api[_-]?key|secret|password|passwd|token|access[_-]?token|client[_-]?secret)["']?\s*[:=]\s*["']?)[^\s"'&,;}]{4,}/gi,
    replace: `$1${REDACTED}`,
  },
];

/**
 * Matches wherever any of the patterns above could match (a superset: each pattern needs one of these
 * literals), so the common text (ids, dates, digests, ordinary arguments) is tested once, not ten times.
 */
const MAY_HOLD_SECRET =
  /-----BEGIN|bearer|basic|[spr]k-|aiza|akia|asia|gh[pousr]_|xox[abprs]-|eyj|:\/\/|api[_-]?key|secret|passw|token/i;

/** Replaces credential-shaped substrings of a text. */
export function scrubSecretText(text: string): string {
  if (!MAY_HOLD_SECRET.test(text)) return text;
  let out = text;
  for (const { pattern, replace } of PATTERNS) out = out.replace(pattern, replace);
  return out;
}

const SECRET_KEY =
  /^(?:api[_-]?key|secret|password|passwd|token|access[_-]?token|refresh[_-]?token|client[_-]?secret|authorization|private[_-]?key)$/i;

/**
 * A copy of a JSON value with credential-shaped strings scrubbed and the values of secret-named members
 * (`password`, `apiKey`, `token`…) replaced; the value itself when nothing in it could be a secret (the
 * usual case, checked without copying). Iterative: model input can nest deeper than the stack allows.
 */
export function scrubSecrets<T>(value: T): T {
  if (!maySeeSecret(value)) return value;
  const root: { value: unknown } = { value: structuredCloneJson(value) };
  const stack: { parent: Record<string, unknown> | unknown[]; key: string | number }[] = [
    { parent: root as unknown as Record<string, unknown>, key: 'value' },
  ];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { parent, key } = item;
    const current = (parent as Record<string | number, unknown>)[key];
    if (typeof current === 'string') {
      (parent as Record<string | number, unknown>)[key] = scrubSecretText(current);
    } else if (Array.isArray(current)) {
      for (let index = 0; index < current.length; index += 1) stack.push({ parent: current, key: index });
    } else if (current !== null && typeof current === 'object') {
      const record = current as Record<string, unknown>;
      for (const member of Object.keys(record)) {
        if (SECRET_KEY.test(member) && typeof record[member] === 'string') record[member] = REDACTED;
        else stack.push({ parent: record, key: member });
      }
    }
  }
  return root.value as T;
}

/** Whether scrubbing could change anything: a string that may hold a secret, or a secret-named string member. */
function maySeeSecret(value: unknown): boolean {
  const stack: unknown[] = [value];
  for (let current = stack.pop(); stack.length > 0 || current !== undefined; current = stack.pop()) {
    if (typeof current === 'string') {
      if (MAY_HOLD_SECRET.test(current)) return true;
    } else if (Array.isArray(current)) {
      for (const element of current) stack.push(element);
    } else if (current !== null && typeof current === 'object') {
      const record = current as Record<string, unknown>;
      for (const member of Object.keys(record)) {
        const child = record[member];
        if (typeof child === 'string' && SECRET_KEY.test(member)) return true;
        stack.push(child);
      }
    }
  }
  return false;
}

function structuredCloneJson(value: unknown): unknown {
  // Journal records are JSON by construction. canonicalJson and JSON.parse cope with any depth, unlike
  // JSON.stringify and structuredClone.
  return value === undefined ? undefined : JSON.parse(canonicalJson(value));
}
