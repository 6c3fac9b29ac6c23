import { ToolNameError } from '../errors/tool-name-error.js';
import type { SchemaChange } from '../schema-change.js';
import type { SchemaTarget } from '../schema-target.js';
import { TOOL_NAME_RULES, type ToolNameRule } from './tool-name-rules.js';

/** Maps tool names to names a provider accepts, and back. */
export interface ToolNameMap {
  /** The name the model sees. Unknown names pass through unchanged. */
  toProvider(name: string): string;
  /** The catalogue's name for a name the model used. Unknown names (a model's invention) pass through. */
  fromProvider(name: string): string;
  readonly changes: readonly SchemaChange[];
  /** Original name → provider name, for every tool (renamed or not). */
  readonly names: ReadonlyMap<string, string>;
  /**
   * Identifies what this map does to ANY name: two maps with the same key give every name the same provider
   * name. Valid names are kept and unknown names pass through, so the renamed pairs are the whole mapping
   * (sorted JSON text: a tool name may hold any character, and the mapping does not depend on order).
   * Adapters key their cached conversions of history messages on it instead of mapping every call's name
   * of the history again on every request.
   */
  readonly key: string;
}

/**
 * Valid names are kept as they are. An invalid name becomes its sanitised form (each rejected character →
 * `_`, a leading non-letter prefixed with `_` where required), unless that form is too long, empty of
 * letters and digits, or claimed by another tool: then it is cut and suffixed with a hash of the original
 * name. The result depends only on the names, never on their order, so the same catalogue always maps the
 * same way; a name changes only if a new tool collides with it.
 */
export function createToolNameMap(names: readonly string[], target: SchemaTarget): ToolNameMap {
  const rule = TOOL_NAME_RULES[target];
  const seen = new Set<string>();
  for (const name of names) {
    if (name === '') throw new ToolNameError('empty_tool_name', name);
    if (seen.has(name)) throw new ToolNameError('duplicate_tool_name', name);
    seen.add(name);
  }
  const valid = names.filter((name) => rule.pattern.test(name));
  const invalid = [...names.filter((name) => !rule.pattern.test(name))].sort();
  const taken = new Set(valid);

  const candidates = new Map(invalid.map((name) => [name, sanitize(name, rule)]));
  const candidateCount = new Map<string, number>();
  for (const candidate of candidates.values()) candidateCount.set(candidate, (candidateCount.get(candidate) ?? 0) + 1);

  const toProvider = new Map<string, string>(valid.map((name) => [name, name]));
  const changes: SchemaChange[] = [];
  for (const name of invalid) {
    const candidate = candidates.get(name) ?? '';
    const usable =
      candidate.length <= rule.maxLength &&
      /[A-Za-z0-9]/.test(candidate) &&
      !taken.has(candidate) &&
      candidateCount.get(candidate) === 1;
    let mapped = usable ? candidate : hashed(name, candidate, rule);
    for (let counter = 2; taken.has(mapped); counter += 1) mapped = hashed(`${name}#${counter}`, candidate, rule);
    taken.add(mapped);
    toProvider.set(name, mapped);
    changes.push({
      path: '',
      kind: 'renamed',
      keyword: 'name',
      detail: `"${name}" → "${mapped}" (${reason(name, rule)})`,
    });
  }
  const fromProvider = new Map([...toProvider].map(([original, mapped]) => [mapped, original]));
  const ordered = new Map(names.map((name) => [name, toProvider.get(name) ?? name]));
  const renamed = [...toProvider].filter(([original, mapped]) => mapped !== original);
  renamed.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    key: JSON.stringify(renamed),
    toProvider: (name) => toProvider.get(name) ?? name,
    fromProvider: (name) => fromProvider.get(name) ?? name,
    changes: Object.freeze(changes),
    names: ordered,
  };
}

function sanitize(name: string, rule: ToolNameRule): string {
  let result = '';
  for (const character of name) result += rule.allowed.test(character) ? character : '_';
  if (rule.mustStartWithLetter && !/^[A-Za-z_]/.test(result)) result = `_${result}`;
  return result;
}

function hashed(seed: string, candidate: string, rule: ToolNameRule): string {
  const suffix = `_${fnv1a(seed)}`;
  const head = /[A-Za-z0-9]/.test(candidate) ? candidate : 'tool';
  return head.slice(0, rule.maxLength - suffix.length) + suffix;
}

/** 32-bit FNV-1a as 8 hex digits: stable across runs and platforms, enough to separate a catalogue's names. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

function reason(name: string, rule: ToolNameRule): string {
  if (name.length > rule.maxLength) return `longer than ${rule.maxLength}`;
  if (rule.mustStartWithLetter && !/^[A-Za-z_]/.test(name)) return 'must start with a letter or _';
  const bad = [...new Set([...name].filter((character) => !rule.allowed.test(character)))];
  return `rejected characters ${bad.map((character) => JSON.stringify(character)).join(' ')}`;
}
