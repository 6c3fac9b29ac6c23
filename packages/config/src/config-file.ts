import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import { CONFIG_FILE_SCHEMA, MODEL_OBJECT_SCHEMA } from './config-file-schema.js';
import { didYouMean } from './did-you-mean.js';
import { ModelConfigurationError } from './errors/configuration-error.js';
import type { ModelConfig } from './model-config.js';
import { parseModelList } from './parse-model-list.js';

export const CONFIG_FILE_NAME = 'toolcircuit.config.json';

/** What `toolcircuit.config.json` holds once validated. */
export interface ToolcircuitConfig {
  readonly model?: string | ModelConfig;
  readonly system?: string;
  readonly maxTurns?: number;
  readonly concurrency?: number;
  readonly toolTimeoutMs?: number;
  /** Path of the catalogue module, relative to the config file. */
  readonly catalogue?: string;
  /** `toolcircuit lint` settings: a severity per rule name (`off`, `note`, `warn`/`warning`, `error`). */
  readonly lint?: { readonly rules?: Readonly<Record<string, 'off' | 'note' | 'warn' | 'warning' | 'error'>> };
  /** MCP servers whose tools `toolcircuit run` imports (through @toolcircuit/mcp), by short name. */
  readonly mcpServers?: Readonly<Record<string, McpServerConfig>>;
}

/** One MCP server in `toolcircuit.config.json`: a command (stdio) or a URL (Streamable HTTP / SSE). */
export interface McpServerConfig {
  readonly command?: string;
  readonly args?: readonly string[];
  /** Relative to the config file. */
  readonly cwd?: string;
  /** Environment variables passed on to the server by name (their values never live in the file). */
  readonly passEnv?: readonly string[];
  readonly url?: string;
  readonly transport?: 'auto' | 'streamable-http' | 'sse';
  /** The variable holding a bearer token for an HTTP server. */
  readonly bearerTokenEnv?: string;
  /** Prepended to the server's tool names in the catalogue. */
  readonly prefix?: string;
  /** A file written by `toolcircuit mcp import`: its tools' fingerprints are the pins. */
  readonly pins?: string;
}

export interface ConfigProblem {
  /** JSON pointer into the file, `/` for the root. */
  readonly field: string;
  readonly message: string;
}

/** The config file exists but does not fit its schema; `problems` lists every bad field at once. */
export class ConfigFileError extends ModelConfigurationError {
  readonly file: string;
  readonly problems: readonly ConfigProblem[];

  constructor(file: string, problems: readonly ConfigProblem[], options?: ErrorOptions) {
    const first = problems[0]?.field ?? '/';
    super(
      'invalid_config',
      first,
      `${file} is not a valid toolcircuit config:\n${problems.map((p) => `  ${p.field}: ${p.message}`).join('\n')}`,
      options,
    );
    this.file = file;
    this.problems = problems;
  }
}

// `verbose` keeps each error's schema, so an unknown field can be compared with the known ones.
const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, verbose: true });
const validateFile = ajv.compile<ToolcircuitConfig>(CONFIG_FILE_SCHEMA);
const validateModelObject = ajv.compile<ModelConfig>(MODEL_OBJECT_SCHEMA);

/** Validates an already-parsed config value; throws {@link ConfigFileError} naming every bad field. */
export function parseConfig(value: unknown, file = CONFIG_FILE_NAME): ToolcircuitConfig {
  const problems = validateFile(value) ? [] : describeErrors(validateFile.errors ?? [], '');
  const model = (value as { model?: unknown } | null)?.model;
  if (typeof model === 'string') {
    try {
      parseModelList(model, '/model');
    } catch (error) {
      problems.push({ field: '/model', message: (error as Error).message.replace(/^\/model: /, '') });
    }
  } else if (typeof model === 'object' && model !== null && !validateModelObject(model)) {
    problems.push(...describeErrors(validateModelObject.errors ?? [], '/model'));
  }
  if (problems.length === 0) return value as ToolcircuitConfig;
  throw new ConfigFileError(file, problems);
}

/**
 * Validates a model object given in code (JavaScript callers have no type checker); throws
 * {@link ModelConfigurationError} `invalid_config` listing every bad field, with `field` the first one.
 */
export function parseModelConfig(value: unknown, field = 'model'): ModelConfig {
  if (validateModelObject(value)) return value;
  const problems = describeErrors(validateModelObject.errors ?? [], '');
  const where = (problem: ConfigProblem) => (problem.field === '/' ? field : `${field}${problem.field}`);
  throw new ModelConfigurationError(
    'invalid_config',
    problems[0] === undefined ? field : where(problems[0]),
    `${field} is not a valid model config:\n${problems.map((p) => `  ${where(p)}: ${p.message}`).join('\n')}`,
  );
}

/** Reads and validates a config file. A missing file is `undefined`: configuration is optional. */
export async function loadConfigFile(path: string): Promise<ToolcircuitConfig | undefined> {
  const file = resolve(path);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigFileError(file, [{ field: '/', message: `not valid JSON (${(error as Error).message})` }], {
      cause: error,
    });
  }
  return parseConfig(value, file);
}

function describeErrors(errors: readonly ErrorObject[], prefix: string): ConfigProblem[] {
  return errors.map((error) => ({
    field: `${prefix}${error.instancePath}` || '/',
    message: describeError(error),
  }));
}

function describeError(error: ErrorObject): string {
  switch (error.keyword) {
    case 'additionalProperties': {
      const name = String(error.params['additionalProperty']);
      const known = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      const hint = didYouMean(name, known);
      if (hint !== '') return `unknown field "${name}".${hint}`;
      return name.toLowerCase().includes('key')
        ? `unknown field "${name}": keys are never read from config; set the provider's env var (or name it in model.apiKeyEnv)`
        : `unknown field "${name}"`;
    }
    case 'required':
      return `missing field "${String(error.params['missingProperty'])}"`;
    case 'type':
      return `must be ${String(error.params['type']).replace(',', ' or ')}`;
    case 'enum': {
      const allowed = error.params['allowedValues'] as unknown[];
      const given = typeof error.data === 'string' ? didYouMean(error.data, allowed.map(String)) : '';
      const list = `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`;
      return given === '' ? list : `${list}.${given}`;
    }
    default:
      return error.message ?? `fails ${error.keyword}`;
  }
}
