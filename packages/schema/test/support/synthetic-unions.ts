import type { JsonObject } from '@toolcircuit/core';

// SYNTHETIC schemas, written by us in the style of vendor tool lists (cloud DNS and storage APIs, which the
// recorded corpus lacks: no published MCP server we recorded declares a root union). Not recordings.

/** A "create DNS record" tool as vendor tool lists write it: one root variant per record type. */
export const DNS_RECORD: JsonObject = {
  type: 'object',
  oneOf: [
    {
      type: 'object',
      properties: { type: { const: 'A' }, name: { type: 'string' }, content: { type: 'string', format: 'ipv4' } },
      required: ['type', 'name', 'content'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: {
        type: { const: 'MX' },
        name: { type: 'string' },
        content: { type: 'string' },
        priority: { type: 'integer', minimum: 0 },
      },
      required: ['type', 'name', 'content', 'priority'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: {
        type: { const: 'BUCKET' },
        name: { type: 'string' },
        secret: {
          type: 'object',
          properties: { project: { type: 'string' } },
          required: ['project'],
          additionalProperties: false,
        },
      },
      required: ['type', 'name', 'secret'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: {
        type: { const: 'S3' },
        name: { type: 'string' },
        secret: {
          type: 'object',
          properties: { accessKey: { type: 'string' }, secretKey: { type: 'string' } },
          required: ['accessKey', 'secretKey'],
          additionalProperties: false,
        },
      },
      required: ['type', 'name', 'secret'],
      additionalProperties: false,
    },
  ],
};

/** A storage connection: variants that share keys with different shapes, open to extra keys. */
export const STORAGE_CONNECTION: JsonObject = {
  type: 'object',
  properties: { name: { type: 'string', description: 'Connection name' } },
  required: ['name'],
  anyOf: [
    {
      properties: {
        provider: { const: 's3' },
        secret: {
          type: 'object',
          properties: { accessKeyId: { type: 'string' }, secretAccessKey: { type: 'string' } },
          required: ['accessKeyId', 'secretAccessKey'],
        },
        region: { type: 'string' },
      },
      required: ['provider', 'secret'],
    },
    {
      properties: {
        provider: { const: 'gcs' },
        secret: { type: 'string', description: 'Service account key as JSON text' },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
      },
      required: ['provider', 'secret'],
    },
  ],
};

/** A message whose body is text or JSON, told apart by a const `kind` (same keys in both branches). */
export const SEND_MESSAGE: JsonObject = {
  type: 'object',
  properties: {
    to: { type: 'string' },
    message: {
      oneOf: [
        {
          type: 'object',
          properties: { kind: { const: 'text' }, body: { type: 'string' } },
          required: ['kind', 'body'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: { kind: { const: 'json' }, body: { type: 'object', additionalProperties: true } },
          required: ['kind', 'body'],
          additionalProperties: false,
        },
      ],
    },
    tags: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false },
  },
  required: ['to', 'message'],
  additionalProperties: false,
};

export const SYNTHETIC_UNION_TOOLS: readonly { readonly name: string; readonly schema: JsonObject }[] = [
  { name: 'create_dns_record', schema: DNS_RECORD },
  { name: 'create_storage_connection', schema: STORAGE_CONNECTION },
  { name: 'send_message', schema: SEND_MESSAGE },
];
