import type { Model, ModelRequest } from '@toolcircuit/core';
import {
  type RecordedWireRequest,
  type ReplyScript,
  type ScriptedReply,
  startRecordingServer,
} from '@toolcircuit/testing';
import { AzureOpenAI, OpenAI } from 'openai';
import { describe, expect, it, vi } from 'vitest';
import { createOpenAIChatModel, createOpenAIResponsesModel } from '../src/index.js';
import { chatReplies, responsesReplies, SCRIPTED_STEPS } from './support/multi-step-replies.js';
import { runSteps, type Send, viaGenerate, viaStream } from './support/multi-step-run.js';
import { CASE_FILE_SYSTEM, CASE_FILE_TOOLS } from './support/scenario.js';

/**
 * A client that the adapter must hand the body object (it is not the SDK's own class), so the SDK serialises
 * the params itself: what it sends without the text option. It notes which kind of body it was given.
 */
class SdkSerialisingClient extends OpenAI {
  readonly bodyKinds: string[] = [];
  override buildRequest(...args: Parameters<OpenAI['buildRequest']>): ReturnType<OpenAI['buildRequest']> {
    this.bodyKinds.push(typeof args[0].body);
    return super.buildRequest(...args);
  }
}

type Api = 'chat' | 'responses';

interface Variant {
  readonly name: string;
  readonly api: Api;
  readonly replies: () => ScriptedReply[];
  readonly send: Send;
}

const VARIANTS: readonly Variant[] = [
  { name: 'Chat Completions generate()', api: 'chat', replies: () => chatReplies('json'), send: viaGenerate },
  { name: 'Chat Completions stream()', api: 'chat', replies: () => chatReplies('sse'), send: viaStream },
  { name: 'Responses generate()', api: 'responses', replies: () => responsesReplies('json'), send: viaGenerate },
  { name: 'Responses stream()', api: 'responses', replies: () => responsesReplies('sse'), send: viaStream },
];

const BASE: Readonly<Record<Api, Omit<ModelRequest, 'messages'>>> = {
  chat: {
    system: CASE_FILE_SYSTEM,
    tools: CASE_FILE_TOOLS,
    parallelToolCalls: true,
    temperature: 0.2,
    maxOutputTokens: 800,
    providerOptions: { openai: { service_tier: 'default', metadata: { run: 'body-text' }, user: 'user-42' } },
  },
  responses: {
    system: CASE_FILE_SYSTEM,
    tools: CASE_FILE_TOOLS,
    parallelToolCalls: true,
    maxOutputTokens: 800,
    providerOptions: { openai: { reasoning: { effort: 'low', summary: 'auto' }, service_tier: 'default' } },
  },
};

const API_KEY = 'sk-test-not-a-real-key';

function createModel(api: Api, connection: { readonly baseURL: string } | { readonly client: OpenAI }): Model {
  const options = { model: api === 'chat' ? 'gpt-4o' : 'gpt-5-mini', apiKey: API_KEY, maxRetries: 0, ...connection };
  return api === 'chat' ? createOpenAIChatModel(options) : createOpenAIResponsesModel(options);
}

/** The n-th request gets `replies[n]`; one past the end gets the server's 500 (`undefined`). */
function inOrder(replies: readonly ScriptedReply[]): ReplyScript {
  return (_request, index) => replies[index];
}

interface Played {
  readonly requests: readonly RecordedWireRequest[];
  readonly sent: readonly ModelRequest[];
}

/** Plays the scripted run against a fresh recording server, with the SDK's own client or `client`. */
async function play(
  variant: Variant,
  send: Send = variant.send,
  client?: (baseURL: string) => OpenAI,
  steps = SCRIPTED_STEPS,
): Promise<Played> {
  const server = await startRecordingServer(inOrder(variant.replies()));
  try {
    const baseURL = `${server.url}/v1`;
    const model = createModel(variant.api, client === undefined ? { baseURL } : { client: client(baseURL) });
    const sent = await runSteps(model, send, BASE[variant.api], steps);
    return { requests: [...server.requests], sent };
  } finally {
    await server.close();
  }
}

/** The body's growing list: Chat `messages`, Responses `input`. */
function historyList(api: Api, bodyText: string): unknown[] {
  const body = JSON.parse(bodyText) as Record<string, unknown>;
  const list = body[api === 'chat' ? 'messages' : 'input'];
  if (!Array.isArray(list)) throw new Error('body has no message list');
  return list;
}

describe.each(VARIANTS)('$name sends the body as text', (variant) => {
  it('sends, at every step, exactly the bytes the SDK itself serialises from the same params', async () => {
    const own = await play(variant);
    const clients: SdkSerialisingClient[] = [];
    const reference = await play(variant, variant.send, (baseURL) => {
      const client = new SdkSerialisingClient({ apiKey: API_KEY, baseURL, maxRetries: 0 });
      clients.push(client);
      return client;
    });
    // The reference run really went through the SDK's own JSON.stringify of the params object.
    expect(clients[0]?.bodyKinds).toEqual(Array(SCRIPTED_STEPS).fill('object'));
    expect(own.requests).toHaveLength(SCRIPTED_STEPS);
    expect(own.requests.map((request) => request.text)).toEqual(reference.requests.map((request) => request.text));

    // The run holds what it is meant to exercise.
    const last = own.requests.at(-1)?.text ?? '';
    expect(last).toContain(JSON.stringify(CASE_FILE_SYSTEM));
    expect(last).toContain('"service_tier":"default"');
    expect(last).toContain('montant\\":41.2');
    expect(last).toContain('Error: call_3 timed out');
    expect(last).toContain('juge Martín — 41,20 €');
    const list = historyList(variant.api, last);
    const results = list.filter((item) => JSON.stringify(item).match(/"(role":"tool|type":"function_call_output)"/));
    expect(results).toHaveLength(5);
    if (variant.api === 'responses') {
      expect(list.filter((item) => (item as { type?: string }).type === 'reasoning')).toHaveLength(2);
    }
  });

  it('declares the text as application/json', async () => {
    const { requests } = await play(variant);
    for (const request of requests) {
      expect(request.headers['content-type']).toBe('application/json');
      expect(Number(request.headers['content-length'])).toBe(request.bytes.length);
    }
  });

  it('serialises at each step only the messages new since the last step (and the tools once)', async () => {
    const stringify = JSON.stringify;
    const spy = vi.spyOn(JSON, 'stringify');
    // Per step: the text of every object handed to JSON.stringify while the step was being sent.
    const stringified: Set<string>[] = [];
    const observed: Send = async (model, request) => {
      spy.mockClear();
      const turn = await variant.send(model, request);
      const objects = spy.mock.calls.map(([value]) => value).filter((value) => typeof value === 'object');
      stringified.push(new Set(objects.map((value) => stringify(value))));
      return turn;
    };
    let requests: readonly RecordedWireRequest[];
    try {
      ({ requests } = await play(variant, observed));
    } finally {
      spy.mockRestore();
    }
    expect(stringified).toHaveLength(SCRIPTED_STEPS);
    let previousLength = 0;
    for (const [step, request] of requests.entries()) {
      const list = historyList(variant.api, request.text);
      const texts = stringified[step] ?? new Set<string>();
      // Chat's system message is made per request from `request.system`, so it is new every step.
      const isNew = list.map((_, index) => index >= previousLength || (variant.api === 'chat' && index === 0));
      expect(list.map((item) => texts.has(stringify(item)))).toEqual(isNew);
      const tools = (JSON.parse(request.text) as { tools: unknown }).tools;
      expect(texts.has(stringify(tools))).toBe(step === 0);
      previousLength = list.length;
    }
    expect(previousLength).toBeGreaterThan(8);
  });
});

describe('the body object stays where a client reads it', () => {
  it('gives AzureOpenAI (which routes by body.model) the object, and the same bytes reach the server', async () => {
    const chat = VARIANTS[0] as Variant;
    const plain = await play(chat, viaGenerate, undefined, 1);
    const server = await startRecordingServer(inOrder(chat.replies()));
    try {
      const client = new AzureOpenAI({
        apiKey: API_KEY,
        endpoint: server.url,
        apiVersion: '2024-10-21',
        maxRetries: 0,
      });
      await runSteps(createModel('chat', { client }), viaGenerate, BASE.chat, 1);
      expect(server.requests[0]?.path).toBe('/openai/deployments/gpt-4o/chat/completions');
      expect(server.requests[0]?.text).toBe(plain.requests[0]?.text);
    } finally {
      await server.close();
    }
  });

  it('copies a reasoning item from the history instead of freezing the caller’s metadata object', async () => {
    const { sent } = await play(VARIANTS[2] as Variant);
    const reasoning = sent
      .at(-1)
      ?.messages.flatMap((message) => (message.role === 'assistant' ? message.content : []))
      .filter((part) => part.type === 'reasoning');
    expect(reasoning).toHaveLength(2);
    for (const part of reasoning ?? []) {
      const item = part.providerMetadata?.['openai']?.['item'];
      expect(typeof item).toBe('object');
      expect(Object.isFrozen(item)).toBe(false);
    }
  });
});
