import { createCatalogue, defineTool, everySession, type ToolContext } from '@toolcircuit/core';
import { SYNTHETIC_PNG_BASE64, SYNTHETIC_WAV_BASE64 } from '@toolcircuit/testing';
import {
  type ServedCall,
  type ServedPrompt,
  type ServedResource,
  type ServedResourceTemplate,
  servedCallOf,
} from '../src/index.js';

/*
 * Test data: the tools, resources and prompts the official conformance suite's server scenarios ask for
 * (names, arguments and answers from the scenarios' descriptions), as an application would define them.
 * Open to every session: the suite's client is anonymous. The image and the sound are the synthetic ones of
 * @toolcircuit/testing.
 */

const NO_INPUT = { type: 'object', properties: {} } as const;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The channel to the MCP client; these tools only make sense when an MCP client called them. */
function clientOf(context: ToolContext): ServedCall {
  const call = servedCallOf(context);
  if (call === undefined) throw new Error(`"${context.toolName}" needs to be called by an MCP client.`);
  return call;
}

export const conformanceCatalogue = createCatalogue([
  defineTool({
    name: 'test_simple_text',
    description: 'Returns a simple text response.',
    inputSchema: NO_INPUT,
    right: everySession,
    run: () => 'This is a simple text response for testing.',
  }),
  defineTool({
    name: 'test_error_handling',
    description: 'Always fails.',
    inputSchema: NO_INPUT,
    right: everySession,
    run: () => {
      throw new Error('This tool intentionally returns an error for testing');
    },
  }),
  defineTool({
    name: 'test_image_content',
    description: 'Returns an image.',
    inputSchema: NO_INPUT,
    right: everySession,
    run: () => ({ isError: false, content: [{ type: 'image', mediaType: 'image/png', data: SYNTHETIC_PNG_BASE64 }] }),
  }),
  defineTool({
    name: 'test_audio_content',
    description: 'Returns a sound.',
    inputSchema: NO_INPUT,
    right: everySession,
    run: () => ({ isError: false, content: [{ type: 'file', mediaType: 'audio/wav', data: SYNTHETIC_WAV_BASE64 }] }),
  }),
  defineTool({
    name: 'test_embedded_resource',
    description: 'Returns an embedded resource.',
    inputSchema: NO_INPUT,
    right: everySession,
    run: () => ({
      isError: false,
      content: [
        {
          type: 'file',
          mediaType: 'text/plain',
          name: 'test://embedded-resource',
          data: Buffer.from('This is an embedded resource content.').toString('base64'),
        },
      ],
    }),
  }),
  defineTool({
    name: 'test_multiple_content_types',
    description: 'Returns text, an image and an embedded resource.',
    inputSchema: NO_INPUT,
    right: everySession,
    run: () => ({
      isError: false,
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', mediaType: 'image/png', data: SYNTHETIC_PNG_BASE64 },
        {
          type: 'file',
          mediaType: 'text/plain',
          name: 'test://mixed-content-resource',
          data: Buffer.from(JSON.stringify({ test: 'data', value: 123 })).toString('base64'),
        },
      ],
    }),
  }),
  defineTool({
    name: 'test_tool_with_logging',
    description: 'Logs three messages while it runs.',
    inputSchema: NO_INPUT,
    right: everySession,
    run: async (_input, context) => {
      const client = clientOf(context);
      await client.log('info', 'Tool execution started');
      await sleep(50);
      await client.log('info', 'Tool processing data');
      await sleep(50);
      await client.log('info', 'Tool execution completed');
      return 'Logged three messages.';
    },
  }),
  defineTool({
    name: 'test_tool_with_progress',
    description: 'Reports its progress while it runs.',
    inputSchema: NO_INPUT,
    right: everySession,
    run: async (_input, context) => {
      const client = clientOf(context);
      await client.progress(0, 100);
      await sleep(50);
      await client.progress(50, 100);
      await sleep(50);
      await client.progress(100, 100);
      return 'Progress reported.';
    },
  }),
  defineTool({
    name: 'test_sampling',
    description: "Asks the client's model.",
    inputSchema: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] },
    right: everySession,
    run: async ({ prompt }, context) => {
      const answer = await clientOf(context).sample({
        messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
        maxTokens: 100,
      });
      const content = Array.isArray(answer.content) ? answer.content[0] : answer.content;
      return `LLM response: ${content?.type === 'text' ? content.text : JSON.stringify(content)}`;
    },
  }),
  defineTool({
    name: 'test_elicitation',
    description: "Asks the client's human.",
    inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
    right: everySession,
    run: async ({ message }, context) => {
      const answer = await clientOf(context).elicit({
        message,
        requestedSchema: {
          type: 'object',
          properties: {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          },
          required: ['username', 'email'],
        },
      });
      return `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
    },
  }),
  defineTool({
    name: 'test_elicitation_sep1034_defaults',
    description: 'Asks with a default for every primitive type.',
    inputSchema: NO_INPUT,
    right: everySession,
    run: async (_input, context) => {
      const answer = await clientOf(context).elicit({
        message: 'Please review the defaults.',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', default: 'John Doe' },
            age: { type: 'integer', default: 30 },
            score: { type: 'number', default: 95.5 },
            status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
            verified: { type: 'boolean', default: true },
          },
        },
      });
      return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
    },
  }),
  defineTool({
    name: 'test_elicitation_sep1330_enums',
    description: 'Asks with every kind of enum.',
    inputSchema: NO_INPUT,
    right: everySession,
    run: async (_input, context) => {
      const answer = await clientOf(context).elicit({
        message: 'Please choose.',
        requestedSchema: {
          type: 'object',
          properties: {
            untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            titledSingle: {
              type: 'string',
              oneOf: [
                { const: 'value1', title: 'First Option' },
                { const: 'value2', title: 'Second Option' },
                { const: 'value3', title: 'Third Option' },
              ],
            },
            legacyEnum: {
              type: 'string',
              enum: ['opt1', 'opt2', 'opt3'],
              enumNames: ['Option One', 'Option Two', 'Option Three'],
            },
            untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
            titledMulti: {
              type: 'array',
              items: {
                anyOf: [
                  { const: 'value1', title: 'First Choice' },
                  { const: 'value2', title: 'Second Choice' },
                  { const: 'value3', title: 'Third Choice' },
                ],
              },
            },
          },
        },
      });
      return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
    },
  }),
  defineTool({
    name: 'test_reconnection',
    description: 'Closes its stream mid-call; the client polls for the result.',
    inputSchema: NO_INPUT,
    right: everySession,
    run: async (_input, context) => {
      clientOf(context).closeStream();
      await sleep(100);
      return 'Reconnection test completed successfully';
    },
  }),
  defineTool({
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
      },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    },
    right: everySession,
    run: (input) => input,
  }),
]);

export const conformanceResources: readonly ServedResource[] = [
  {
    uri: 'test://static-text',
    name: 'static-text',
    description: 'A static text resource.',
    mimeType: 'text/plain',
    right: everySession,
    read: () => [
      { uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' },
    ],
  },
  {
    uri: 'test://static-binary',
    name: 'static-binary',
    description: 'A static image.',
    mimeType: 'image/png',
    right: everySession,
    read: () => [{ uri: 'test://static-binary', mimeType: 'image/png', blob: SYNTHETIC_PNG_BASE64 }],
  },
  {
    uri: 'test://watched-resource',
    name: 'watched-resource',
    description: 'A resource clients subscribe to.',
    mimeType: 'text/plain',
    right: everySession,
    read: () => [{ uri: 'test://watched-resource', mimeType: 'text/plain', text: 'Watched.' }],
  },
];

export const conformanceResourceTemplates: readonly ServedResourceTemplate[] = [
  {
    uriTemplate: 'test://template/{id}/data',
    name: 'template-data',
    description: 'Data by id.',
    mimeType: 'application/json',
    right: everySession,
    read: (uri, { id }) => [
      {
        uri,
        mimeType: 'application/json',
        text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${String(id)}` }),
      },
    ],
  },
];

export const conformancePrompts: readonly ServedPrompt[] = [
  {
    name: 'test_simple_prompt',
    description: 'A simple prompt without arguments.',
    right: everySession,
    get: () => [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
  },
  {
    name: 'test_prompt_with_arguments',
    description: 'A prompt with two arguments.',
    arguments: [
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
    right: everySession,
    get: ({ arg1, arg2 }) => [
      { role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } },
    ],
    complete: { arg1: (value) => ['paris', 'park', 'party'].filter((word) => word.startsWith(value)) },
  },
  {
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt that embeds a resource.',
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
    right: everySession,
    get: ({ resourceUri }) => [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: {
            uri: resourceUri ?? '',
            mimeType: 'text/plain',
            text: 'Embedded resource content for testing.',
          },
        },
      },
      { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
    ],
  },
  {
    name: 'test_prompt_with_image',
    description: 'A prompt with an image.',
    right: everySession,
    get: () => [
      { role: 'user', content: { type: 'image', data: SYNTHETIC_PNG_BASE64, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  },
];
