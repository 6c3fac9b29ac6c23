import type { SchemaChange, SchemaChangeKind } from './schema-change.js';

/**
 * Collects changes, once each: a `$defs` entry inlined at five places is still one change at its own path.
 */
export class ChangeLog {
  readonly #changes: SchemaChange[] = [];
  readonly #seen = new Set<string>();

  add(path: string, kind: SchemaChangeKind, detail: string, keyword?: string, narrows?: string): void {
    const key = `${path}\u0000${kind}\u0000${keyword ?? ''}`;
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    this.#changes.push({
      path,
      kind,
      ...(keyword === undefined ? {} : { keyword }),
      detail,
      ...(narrows === undefined ? {} : { narrows }),
    });
  }

  addAll(changes: readonly SchemaChange[]): void {
    for (const change of changes) this.add(change.path, change.kind, change.detail, change.keyword, change.narrows);
  }

  toArray(): readonly SchemaChange[] {
    return Object.freeze([...this.#changes]);
  }
}
