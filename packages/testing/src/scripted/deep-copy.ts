/**
 * A structural copy of plain data (objects, arrays, primitives), iterative so that the very deep inputs
 * property tests throw at the loop cannot overflow the stack (structuredClone does, at a few thousand levels).
 * Shared references and cycles are preserved.
 */
export function deepCopy<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  const copies = new Map<object, unknown>();
  const root = shell(value);
  copies.set(value, root);
  const work: [object, Record<string, unknown>][] = [[value, root]];
  for (let next = work.pop(); next !== undefined; next = work.pop()) {
    const [source, target] = next;
    for (const key of Object.keys(source)) {
      const child = (source as Record<string, unknown>)[key];
      if (child === null || typeof child !== 'object') {
        // defineProperty: an own "__proto__" key in model output must stay data, not become a prototype.
        Object.defineProperty(target, key, { value: child, enumerable: true, writable: true, configurable: true });
        continue;
      }
      let copy = copies.get(child) as Record<string, unknown> | undefined;
      if (copy === undefined) {
        copy = shell(child);
        copies.set(child, copy);
        work.push([child, copy]);
      }
      Object.defineProperty(target, key, { value: copy, enumerable: true, writable: true, configurable: true });
    }
  }
  return root as T;
}

function shell(value: object): Record<string, unknown> {
  return (Array.isArray(value) ? [] : {}) as Record<string, unknown>;
}
