import { createRequire } from 'node:module';
import type { Ajv, Options } from 'ajv';
import type { Ajv2019 } from 'ajv/dist/2019.js';
import type { Ajv2020 } from 'ajv/dist/2020.js';

export type AjvInstance = Ajv | Ajv2019 | Ajv2020;
export type Draft = 'draft-07' | '2019-09' | '2020-12';

type AjvConstructor = new (options: Options) => AjvInstance;

const MODULES: Readonly<Record<Draft, string>> = {
  'draft-07': 'ajv',
  '2019-09': 'ajv/dist/2019.js',
  '2020-12': 'ajv/dist/2020.js',
};

/**
 * A new ajv instance for one draft, with ajv-formats added. ajv is loaded here, on the first catalogue that
 * has a JSON Schema, not when core is imported: it is most of core's import time (≈ 100 modules of CommonJS),
 * and a process that only replays a journal, renders results or runs Standard Schema tools never needs it.
 * `require` because catalogue creation is synchronous; ajv and ajv-formats are CommonJS packages.
 */
export function createAjv(draft: Draft, options: Options): AjvInstance {
  const require = createRequire(import.meta.url);
  const module = require(MODULES[draft]) as { default: AjvConstructor };
  const created = new module.default(options);
  // ajv-formats' `module.exports` is the plugin itself (its `default` is the same function).
  const addFormats = require('ajv-formats') as (ajv: AjvInstance) => unknown;
  addFormats(created);
  return created;
}
