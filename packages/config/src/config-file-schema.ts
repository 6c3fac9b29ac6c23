import { PROVIDERS } from './providers.js';

export const MODEL_OBJECT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['provider', 'model'],
  properties: {
    provider: { enum: [...PROVIDERS] },
    model: { type: 'string', minLength: 1 },
    baseURL: { type: 'string', pattern: '^https?://' },
    apiKeyEnv: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
    sdk: { enum: ['genai', 'generative-ai'] },
    strict: { type: 'boolean' },
    providerOptions: { type: 'object', additionalProperties: { type: 'object' } },
  },
} as const;

/**
 * The JSON Schema of `toolcircuit.config.json`. Closed everywhere: a misspelt field is reported, not ignored.
 * There is deliberately no field for an API key: keys come from the environment only.
 */
export const CONFIG_FILE_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    // Checked in detail by parseModelSpec / MODEL_OBJECT_SCHEMA, so errors name the exact sub-field.
    model: { type: ['string', 'object'] },
    system: { type: 'string' },
    maxTurns: { type: 'integer', minimum: 1, maximum: 1000 },
    concurrency: { type: 'integer', minimum: 1, maximum: 64 },
    toolTimeoutMs: { type: 'integer', minimum: 1 },
    catalogue: { type: 'string', minLength: 1 },
    // `toolcircuit lint` rule severities; rule names are checked by the CLI, which knows them.
    lint: {
      type: 'object',
      additionalProperties: false,
      properties: {
        rules: { type: 'object', additionalProperties: { enum: ['off', 'note', 'warn', 'warning', 'error'] } },
      },
    },
    // MCP servers whose tools `toolcircuit run` adds to the catalogue (@toolcircuit/mcp), by short name.
    mcpServers: {
      type: 'object',
      propertyNames: { pattern: '^[A-Za-z0-9_.-]+$' },
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        properties: {
          command: { type: 'string', minLength: 1 },
          args: { type: 'array', items: { type: 'string' } },
          cwd: { type: 'string' },
          // Names of variables passed on from the environment; values are never written in the file.
          passEnv: { type: 'array', items: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' } },
          url: { type: 'string', pattern: '^https?://' },
          transport: { enum: ['auto', 'streamable-http', 'sse'] },
          bearerTokenEnv: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
          prefix: { type: 'string', pattern: '^[A-Za-z0-9_.-]*$' },
          pins: { type: 'string', minLength: 1 },
        },
        // Exactly one of the two transports (the `properties` repeat is what ajv's strict mode asks for).
        oneOf: [
          { properties: { command: true }, required: ['command'] },
          { properties: { url: true }, required: ['url'] },
        ],
      },
    },
  },
} as const;
