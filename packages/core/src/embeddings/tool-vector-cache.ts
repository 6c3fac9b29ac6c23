/**
 * Where tool vectors are kept between searches and processes. A key names the embedder and digests the
 * tool's definition as the search sees it (name, namespace, description, schema, aliases), so a tool whose
 * definition changed misses the cache and is embedded again, and two embedders never share a vector.
 * A store implements it over its database; {@link InMemoryToolVectorCache} is the default.
 */
export interface ToolVectorCache {
  /** The vectors cached under these keys, in order (`undefined` for a miss). */
  get(keys: readonly string[]): Promise<readonly (Float32Array | undefined)[]>;
  set(entries: readonly { readonly key: string; readonly vector: Float32Array }[]): Promise<void>;
}

/** The in-process cache: a map, bounded (the oldest entries go first once it holds `maxEntries`). */
export class InMemoryToolVectorCache implements ToolVectorCache {
  readonly #vectors = new Map<string, Float32Array>();
  readonly #maxEntries: number;

  constructor(options: { readonly maxEntries?: number } = {}) {
    this.#maxEntries = Math.max(1, options.maxEntries ?? 100_000);
  }

  get size(): number {
    return this.#vectors.size;
  }

  async get(keys: readonly string[]): Promise<readonly (Float32Array | undefined)[]> {
    return keys.map((key) => this.#vectors.get(key));
  }

  async set(entries: readonly { readonly key: string; readonly vector: Float32Array }[]): Promise<void> {
    for (const { key, vector } of entries) {
      this.#vectors.delete(key);
      this.#vectors.set(key, vector);
      if (this.#vectors.size > this.#maxEntries) {
        const oldest = this.#vectors.keys().next().value;
        if (oldest !== undefined) this.#vectors.delete(oldest);
      }
    }
  }
}
