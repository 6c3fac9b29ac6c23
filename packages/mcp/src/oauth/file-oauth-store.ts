import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { McpOAuthRecord, McpOAuthStore } from './oauth-store.js';

/**
 * Keeps tokens in one JSON file readable by its owner only (mode 0600), so a CLI keeps its login across
 * runs. Writes go through a temporary file and a rename: a crash mid-write leaves the previous file.
 */
export class FileOAuthStore implements McpOAuthStore {
  readonly #path: string;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(path: string) {
    this.#path = path;
  }

  async get(key: string): Promise<McpOAuthRecord | undefined> {
    return (await this.#read())[key];
  }

  set(key: string, record: McpOAuthRecord): Promise<void> {
    return this.#update((records) => {
      records[key] = record;
    });
  }

  delete(key: string): Promise<void> {
    return this.#update((records) => {
      delete records[key];
    });
  }

  async #read(): Promise<Record<string, McpOAuthRecord>> {
    let text: string;
    try {
      text = await readFile(this.#path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, McpOAuthRecord>) : {};
  }

  /** One write at a time in this process, so two saves do not lose each other's record. */
  #update(change: (records: Record<string, McpOAuthRecord>) => void): Promise<void> {
    const next = this.#queue.then(async () => {
      const records = await this.#read();
      change(records);
      await mkdir(dirname(this.#path), { recursive: true });
      const temporary = `${this.#path}.${process.pid}.tmp`;
      await writeFile(temporary, `${JSON.stringify(records, null, 2)}\n`, { mode: 0o600 });
      await chmod(temporary, 0o600);
      await rename(temporary, this.#path);
    });
    this.#queue = next.catch(() => undefined);
    return next;
  }
}
