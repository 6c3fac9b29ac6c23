/**
 * Gives `target` an own enumerable `untrustedSources` getter that returns `list()` (a spread or
 * JSON.stringify of the target still holds it); `list` is asked on each read, so it lists once and keeps it. Every target shares one getter: a getter made per object
 * gave each its own object layout (V8 shares a layout between objects only when their accessors are the
 * same functions).
 */
export function withUntrustedSources<T extends object, Source>(target: T, list: () => readonly Source[]): T {
  listOf.set(target, list);
  return Object.defineProperty(target, 'untrustedSources', UNTRUSTED_SOURCES);
}

const listOf = new WeakMap<object, () => readonly unknown[]>();

const UNTRUSTED_SOURCES: PropertyDescriptor = {
  enumerable: true,
  get(this: object): readonly unknown[] {
    return listOf.get(this)?.() ?? [];
  },
};
