import { type Catalogue, jsonDigest } from '@toolcircuit/core';

/**
 * What a paused run needs to stay the same until it resumes: per tool, a digest of its name, input schema,
 * right and irreversible flag. Descriptions are left out on purpose: rewording one changes nothing about
 * what an approved call does, while a new schema, right or flag does.
 */
export interface CatalogueFingerprint {
  readonly digest: string;
  readonly tools: Readonly<Record<string, string>>;
}

export function catalogueFingerprint(catalogue: Catalogue): CatalogueFingerprint {
  const tools: Record<string, string> = {};
  for (const name of catalogue.names) {
    const entry = catalogue.get(name);
    if (entry === undefined) continue;
    const { right, irreversible } = entry.definition;
    tools[name] = jsonDigest({
      name,
      inputSchema: entry.declaration.inputSchema,
      right: typeof right === 'string' ? { name: right } : { everySession: true },
      irreversible,
    });
  }
  return { digest: jsonDigest(tools), tools };
}

/** The tools that differ, in words ("added x", "removed y", "changed z"); empty when the fingerprints match. */
export function catalogueChanges(stored: CatalogueFingerprint, current: CatalogueFingerprint): string[] {
  if (stored.digest === current.digest) return [];
  const changes: string[] = [];
  for (const [name, digest] of Object.entries(stored.tools)) {
    const now = current.tools[name];
    if (now === undefined) changes.push(`removed "${name}"`);
    else if (now !== digest) changes.push(`changed "${name}"`);
  }
  for (const name of Object.keys(current.tools)) {
    if (stored.tools[name] === undefined) changes.push(`added "${name}"`);
  }
  // A digest that differs while no tool does means the stored fingerprint itself was altered.
  return changes.length > 0 ? changes : ['the stored catalogue fingerprint is inconsistent'];
}
