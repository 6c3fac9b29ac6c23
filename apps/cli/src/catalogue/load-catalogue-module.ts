import { type AnyToolDefinition, type Catalogue, createCatalogue, type Session } from '@toolcircuit/core';
import { UsageError } from '../errors/usage-error.js';
import { importModule } from './import-module.js';

/** What a catalogue module gives the CLI. */
export interface CatalogueModule {
  readonly file: string;
  readonly catalogue: Catalogue;
  /** An exported `session`, used by `run` when no --right / --human flag is given. */
  readonly session?: Session;
  /** An exported `system` string: the system prompt `run` uses unless --system is given. */
  readonly system?: string;
}

/**
 * Loads a module that exports `catalogue` (or a default export): a Catalogue from `createCatalogue`, or an
 * array of tools from `defineTool`, which is built here (so its errors are the same typed ones).
 */
export async function loadCatalogueModule(file: string): Promise<CatalogueModule> {
  const exports = await importModule(file);
  const value = exports['catalogue'] ?? exports['default'];
  let catalogue: Catalogue;
  if (isCatalogue(value)) catalogue = value;
  else if (Array.isArray(value)) catalogue = createCatalogue(value as AnyToolDefinition[]);
  else {
    throw new UsageError(
      `${file} exports no catalogue.`,
      'Export one: `export const catalogue = createCatalogue([defineTool({ … })])` (or a default export, or an array of defineTool results).',
    );
  }
  const session = exports['session'];
  const system = exports['system'];
  return {
    file,
    catalogue,
    ...(isSession(session) ? { session } : {}),
    ...(typeof system === 'string' ? { system } : {}),
  };
}

function isCatalogue(value: unknown): value is Catalogue {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as Partial<Catalogue>).declarations) &&
    typeof (value as Partial<Catalogue>).get === 'function'
  );
}

function isSession(value: unknown): value is Session {
  if (typeof value !== 'object' || value === null) return false;
  const session = value as Partial<Session>;
  return typeof session.id === 'string' && typeof session.humanId === 'string' && session.rights instanceof Set;
}
