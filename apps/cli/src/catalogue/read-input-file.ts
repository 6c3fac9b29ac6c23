import { readFile } from 'node:fs/promises';
import { UsageError } from '../errors/usage-error.js';

/** Reads a file the user named; a missing or unreadable file is a usage error that says which and why. */
export async function readInputFile(file: string, what: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      throw new UsageError(
        `${what} ${file} does not exist.`,
        'Check the path (it is relative to the current directory).',
      );
    if (code === 'EISDIR') throw new UsageError(`${what} ${file} is a directory, not a file.`);
    throw new UsageError(`cannot read ${what} ${file}: ${(error as Error).message}`, undefined, { cause: error });
  }
}

/** Parses JSON text; invalid JSON is a usage error naming the file and the parser's position. */
export function parseJsonFile(text: string, file: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`${what} ${file} is not valid JSON: ${(error as Error).message}`, undefined, { cause: error });
  }
}
