import { ModelConfigurationError } from './errors/configuration-error.js';

/**
 * Runs a dynamic `import()` of an adapter package and turns "module not found" into a typed error that
 * names the package to install. The import itself is passed in (`() => import('@toolcircuit/openai')`) so
 * the specifier stays a literal and TypeScript keeps the module's types.
 *
 * The missing package is read from Node's message, because it may be a dependency of the adapter (its
 * official SDK) rather than the adapter itself; naming the wrong one would send the user to fix nothing.
 */
export async function importAdapter<T>(packageName: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isModuleNotFound(error)) throw error;
    const missing = missingPackageOf(error) ?? packageName;
    const via = missing === packageName ? '' : ` (needed by ${packageName})`;
    throw new ModelConfigurationError(
      'adapter_missing',
      packageName,
      `the package ${missing}${via} is not installed. Install it next to @toolcircuit/config, e.g. \`npm install ${missing}\`.`,
      { cause: error },
    );
  }
}

function isModuleNotFound(error: unknown): error is Error {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  return (
    code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND' || /Cannot find (package|module)/.test(error.message)
  );
}

/** `Cannot find package '@toolcircuit/google' imported from …` → `@toolcircuit/google`. */
function missingPackageOf(error: Error): string | undefined {
  const quoted = /Cannot find (?:package|module) '([^']+)'/.exec(error.message)?.[1];
  if (quoted === undefined) return undefined;
  // A bare specifier names a package (keep its scope); a path is not something one installs.
  if (quoted.startsWith('.') || quoted.startsWith('/') || /^[A-Za-z]:[\\/]/.test(quoted)) return undefined;
  const parts = quoted.split('/');
  return quoted.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}
