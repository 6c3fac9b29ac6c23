import { readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UsageError } from '../errors/usage-error.js';

const TYPESCRIPT_EXTENSIONS = new Set(['.ts', '.mts', '.cts']);

/** The slice of the TypeScript compiler API used to strip types from a catalogue module. */
interface TypeScriptApi {
  transpileModule(
    input: string,
    options: { compilerOptions: Record<string, unknown>; fileName?: string },
  ): { outputText: string };
  ModuleKind: { ESNext: number };
  ScriptTarget: { ES2022: number };
}

/**
 * Imports a catalogue module by path. JavaScript is imported as it is. TypeScript is imported directly
 * when the process already has a loader for it (`node --import tsx`), else compiled with the `typescript`
 * package when one is installed, into a temporary file beside the original so its imports resolve the same.
 */
export async function importModule(file: string): Promise<Record<string, unknown>> {
  try {
    if (!(await stat(file)).isFile()) throw new UsageError(`catalogue module ${file} is not a file.`);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      `catalogue module ${file} does not exist.`,
      'Check the path (it is relative to the current directory).',
    );
  }
  const url = pathToFileURL(file).href;
  if (!TYPESCRIPT_EXTENSIONS.has(extname(file))) return load(url, file);
  try {
    return (await import(url)) as Record<string, unknown>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw loadError(file, error);
  }
  return importTranspiled(file);
}

async function load(url: string, file: string): Promise<Record<string, unknown>> {
  try {
    return (await import(url)) as Record<string, unknown>;
  } catch (error) {
    throw loadError(file, error);
  }
}

async function importTranspiled(file: string): Promise<Record<string, unknown>> {
  const typescript = await loadTypeScript(file);
  const source = await readFile(file, 'utf8');
  const { outputText } = typescript.transpileModule(source, {
    fileName: file,
    compilerOptions: {
      module: typescript.ModuleKind.ESNext,
      target: typescript.ScriptTarget.ES2022,
      verbatimModuleSyntax: false,
    },
  });
  // Beside the original, so relative and package imports resolve exactly as they would for it.
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.toolcircuit.mjs`);
  await writeFile(temporary, outputText);
  try {
    return await load(pathToFileURL(temporary).href, file);
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}

async function loadTypeScript(file: string): Promise<TypeScriptApi> {
  // A variable specifier: `typescript` is an optional helper, not a dependency of the CLI.
  const specifier = 'typescript';
  try {
    const module = (await import(specifier)) as { default?: TypeScriptApi } & Partial<TypeScriptApi>;
    const api = module.default ?? (module as TypeScriptApi);
    if (typeof api.transpileModule === 'function') return api;
  } catch {
    // Reported below.
  }
  throw new UsageError(
    `catalogue module ${file} is TypeScript, and neither a TypeScript loader nor the typescript package is available.`,
    'Compile it to JavaScript first, run `node --import tsx $(which toolcircuit) …`, or install typescript.',
  );
}

function loadError(file: string, error: unknown): UsageError {
  const message = error instanceof Error ? error.message : String(error);
  return new UsageError(`cannot load catalogue module ${file}: ${message}`, undefined, { cause: error });
}
