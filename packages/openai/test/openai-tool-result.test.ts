// Tool results with images and files, through the SDK against the recording server. The PNG, the PDF and
// every response are synthetic (see @toolcircuit/testing's synthetic-media.ts and conformance wires).
import { readFileSync } from 'node:fs';
import {
  type JsonObject,
  RESULT_PART_KINDS,
  type ResultCoverageTable,
  type ResultPartKind,
  type ToolResultContentPart,
} from '@toolcircuit/core';
import {
  coverageColumnOf,
  MEDIA_PART_SAMPLES,
  mediaResultProblems,
  resultWithPart,
  runMediaResultScenario,
  SYNTHETIC_PDF_BASE64,
  SYNTHETIC_PNG_BASE64,
} from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import {
  convertToOpenAIChatToolResult,
  convertToOpenAIResponsesToolResult,
  createOpenAIChatModel,
  createOpenAIResponsesModel,
  OPENAI_CHAT_TOOL_RESULT_COVERAGE,
  OPENAI_RESPONSES_TOOL_RESULT_COVERAGE,
} from '../src/index.js';

const common = { apiKey: 'test-key-not-secret', maxRetries: 0, env: {} } as const;
const PNG_URL = `data:image/png;base64,${SYNTHETIC_PNG_BASE64}`;
const PDF_URL = `data:application/pdf;base64,${SYNTHETIC_PDF_BASE64}`;
const LIMIT_TEXT = /image of 20971520 bytes, over the limit of 10485760 bytes \(resultLimits\.maxImageBytes\)/;

// A chat.completion as the chunks the API streams for it, then [DONE].
function chatChunks(completion: JsonObject): string {
  const [choice] = completion['choices'] as JsonObject[];
  const message = choice?.['message'] as JsonObject;
  const base = {
    id: completion['id'],
    object: 'chat.completion.chunk',
    created: completion['created'],
    model: completion['model'],
  };
  const calls = (message['tool_calls'] as JsonObject[] | undefined) ?? [];
  const chunks: unknown[] = [
    {
      ...base,
      choices: [{ index: 0, delta: { role: 'assistant', content: message['content'] ?? null }, finish_reason: null }],
    },
    ...calls.map((call, index) => ({
      ...base,
      choices: [{ index: 0, delta: { tool_calls: [{ index, ...call }] }, finish_reason: null }],
    })),
    { ...base, choices: [{ index: 0, delta: {}, finish_reason: choice?.['finish_reason'] ?? 'stop' }] },
  ];
  return `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`;
}

function expectChatShape(body: JsonObject): void {
  const messages = body['messages'] as JsonObject[];
  const [pageTool, fullPageTool, attachments] = messages.slice(-3);
  expect(pageTool?.['role']).toBe('tool');
  // The tool message names each moved part at its place; the parts follow in one user message.
  expect(pageTool?.['content']).toMatch(
    /^Captured https:\/\/example\.test\/report\.\n\[image \(image\/png\), 70 bytes, sha256 [0-9a-f]{16}\] \(attached in the next user message\)\n\[file "report\.pdf" \(application\/pdf\), \d+ bytes, sha256 [0-9a-f]{16}\] \(attached in the next user message\)$/,
  );
  expect(fullPageTool?.['role']).toBe('tool');
  expect(fullPageTool?.['content']).toMatch(LIMIT_TEXT);
  expect(attachments).toEqual({
    role: 'user',
    content: [
      {
        type: 'text',
        text: `Attachments of the result of tool call ${String(pageTool?.['tool_call_id'])} (capture_page):`,
      },
      { type: 'image_url', image_url: { url: PNG_URL } },
      { type: 'file', file: { file_data: PDF_URL, filename: 'report.pdf' } },
    ],
  });
}

function expectResponsesShape(body: JsonObject): void {
  const outputs = (body['input'] as JsonObject[]).filter((item) => item['type'] === 'function_call_output');
  const [page, fullPage] = outputs;
  expect(page?.['output']).toEqual([
    { type: 'input_text', text: 'Captured https://example.test/report.' },
    { type: 'input_image', image_url: PNG_URL, detail: 'auto' },
    { type: 'input_file', file_data: PDF_URL, filename: 'report.pdf' },
  ]);
  expect(fullPage?.['output']).toMatch(LIMIT_TEXT);
  expect(String(fullPage?.['output'])).toMatch(/^Error: /);
}

describe('openai tool results with media', () => {
  it('Chat Completions: the tool message names the parts, one user message after carries them (generate)', async () => {
    const run = await runMediaResultScenario({
      protocol: 'openai-chat',
      createModel: ({ baseURL, modelId }) =>
        createOpenAIChatModel({ ...common, model: modelId, baseURL: `${baseURL}/v1` }),
    });
    expect(mediaResultProblems(run, OPENAI_CHAT_TOOL_RESULT_COVERAGE)).toEqual([]);
    expectChatShape(run.bodies[1] as JsonObject);
  });

  it('Chat Completions: the same on the streaming path', async () => {
    const run = await runMediaResultScenario({
      protocol: 'openai-chat',
      createModel: ({ baseURL, modelId }) =>
        createOpenAIChatModel({ ...common, model: modelId, baseURL: `${baseURL}/v1` }),
      stream: chatChunks,
    });
    expect(run.bodies[0]?.['stream']).toBe(true);
    expect(mediaResultProblems(run, OPENAI_CHAT_TOOL_RESULT_COVERAGE)).toEqual([]);
    expectChatShape(run.bodies[1] as JsonObject);
  });

  it('Responses: function_call_output holds input_text, input_image and input_file', async () => {
    const run = await runMediaResultScenario({
      protocol: 'openai-responses',
      createModel: ({ baseURL, modelId }) =>
        createOpenAIResponsesModel({ ...common, model: modelId, baseURL: `${baseURL}/v1` }),
    });
    expect(mediaResultProblems(run, OPENAI_RESPONSES_TOOL_RESULT_COVERAGE)).toEqual([]);
    expectResponsesShape(run.bodies[1] as JsonObject);
  });
});

function changeKinds(changes: readonly { part: string; kind: string }[]): string[][] {
  return changes.map((change) => [change.part, change.kind]);
}

function expectedChanges(table: ResultCoverageTable, kind: ResultPartKind): string[][] {
  return table[kind] === 'native' ? [] : [[kind, table[kind]]];
}

describe('the OpenAI converters follow their coverage tables', () => {
  for (const [kind, part] of Object.entries(MEDIA_PART_SAMPLES) as [
    keyof typeof MEDIA_PART_SAMPLES,
    ToolResultContentPart,
  ][]) {
    it(`${kind}: chat ${OPENAI_CHAT_TOOL_RESULT_COVERAGE[kind]}, responses ${OPENAI_RESPONSES_TOOL_RESULT_COVERAGE[kind]}`, () => {
      const chat = convertToOpenAIChatToolResult(resultWithPart(part));
      expect(changeKinds(chat.changes)).toEqual(expectedChanges(OPENAI_CHAT_TOOL_RESULT_COVERAGE, kind));
      // Only moved parts travel in the user message (after its line naming the call).
      expect(chat.attachments.length).toBe(OPENAI_CHAT_TOOL_RESULT_COVERAGE[kind] === 'moved' ? 2 : 0);
      const responses = convertToOpenAIResponsesToolResult(resultWithPart(part));
      expect(changeKinds(responses.changes)).toEqual(expectedChanges(OPENAI_RESPONSES_TOOL_RESULT_COVERAGE, kind));
      const [item] = responses.output as unknown as JsonObject[];
      const native = OPENAI_RESPONSES_TOOL_RESULT_COVERAGE[kind] === 'native';
      expect(item?.['type']).toBe(native ? (part.type === 'image' ? 'input_image' : 'input_file') : 'input_text');
    });
  }

  it('keeps a text-only output a string, and says "Error" first in a failed one with media', () => {
    expect(convertToOpenAIResponsesToolResult({ ...resultWithPart({ type: 'text', text: 'ok' }) }).output).toBe('ok');
    const failed = convertToOpenAIResponsesToolResult({
      ...resultWithPart(MEDIA_PART_SAMPLES['image-url']),
      isError: true,
    });
    expect(failed.output).toEqual([
      { type: 'input_text', text: 'Error:' },
      { type: 'input_image', image_url: 'https://example.test/chart.png', detail: 'auto' },
    ]);
  });

  it('match the openai columns of the coverage table of the tools guide (docs/guides/tools-and-checks.md)', () => {
    const readme = readFileSync(new URL('../../../docs/guides/tools-and-checks.md', import.meta.url), 'utf8');
    expect(coverageColumnOf(readme, 'openai.chat')).toEqual(
      RESULT_PART_KINDS.map((k) => OPENAI_CHAT_TOOL_RESULT_COVERAGE[k]),
    );
    expect(coverageColumnOf(readme, 'openai.responses')).toEqual(
      RESULT_PART_KINDS.map((k) => OPENAI_RESPONSES_TOOL_RESULT_COVERAGE[k]),
    );
  });
});
