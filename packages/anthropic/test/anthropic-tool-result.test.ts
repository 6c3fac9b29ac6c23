// Tool results with images and documents, through the SDK against the recording server. The PNG, the PDF
// and every response are synthetic (see @toolcircuit/testing's synthetic-media.ts and conformance wires).
import { readFileSync } from 'node:fs';
import {
  type JsonObject,
  type MediaContentPart,
  RESULT_PART_KINDS,
  type ToolResultContentPart,
} from '@toolcircuit/core';
import { describeMedia } from '@toolcircuit/core/provider';
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
import { ANTHROPIC_TOOL_RESULT_COVERAGE, convertToAnthropicToolResult, createAnthropicModel } from '../src/index.js';
import { messageSse } from './stream-events.js';

const createModel = ({ baseURL, modelId }: { baseURL: string; modelId: string }) =>
  createAnthropicModel({ model: modelId, baseURL, apiKey: 'test-key-not-secret', maxRetries: 0 });

/** The documented `tool_result` for the capture: text, an image block, a document block (base64 sources). */
function expectDocumentedShape(body: JsonObject): void {
  const messages = body['messages'] as JsonObject[];
  const reply = messages.at(-1) as JsonObject;
  expect(reply['role']).toBe('user');
  const [page, fullPage] = reply['content'] as JsonObject[];
  expect(page).toEqual({
    type: 'tool_result',
    tool_use_id: expect.any(String),
    content: [
      { type: 'text', text: 'Captured https://example.test/report.' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: SYNTHETIC_PNG_BASE64 } },
      {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: SYNTHETIC_PDF_BASE64 },
        title: 'report.pdf',
      },
    ],
    is_error: false,
  });
  expect(fullPage?.['is_error']).toBe(true);
  expect(fullPage?.['content']).toMatch(
    /image of 20971520 bytes, over the limit of 10485760 bytes \(resultLimits\.maxImageBytes\)/,
  );
}

// A Messages response as the SSE events the API streams for it.
describe('anthropic tool results with media', () => {
  it('sends text + image + PDF as tool_result content blocks, refuses a 20 MiB image and goes on (generate)', async () => {
    const run = await runMediaResultScenario({ protocol: 'anthropic-messages', createModel });
    expect(mediaResultProblems(run, ANTHROPIC_TOOL_RESULT_COVERAGE)).toEqual([]);
    expectDocumentedShape(run.bodies[1] as JsonObject);
  });

  it('sends the same blocks on the streaming path', async () => {
    const run = await runMediaResultScenario({
      protocol: 'anthropic-messages',
      createModel,
      stream: (response) => messageSse(response),
    });
    expect(run.bodies[0]?.['stream']).toBe(true);
    expect(mediaResultProblems(run, ANTHROPIC_TOOL_RESULT_COVERAGE)).toEqual([]);
    expectDocumentedShape(run.bodies[1] as JsonObject);
  });

  it('reports a problem when the degradations differ from a coverage table (the check can fail)', async () => {
    const run = await runMediaResultScenario({ protocol: 'anthropic-messages', createModel });
    const wrong = { ...ANTHROPIC_TOOL_RESULT_COVERAGE, 'image-data': 'moved' as const };
    expect(mediaResultProblems(run, wrong).join('\n')).toMatch(
      /recorded changes \[\], expected \[1:image-data:moved\]/,
    );
  });
});

describe('convertToAnthropicToolResult follows the coverage table', () => {
  for (const [kind, part] of Object.entries(MEDIA_PART_SAMPLES) as [
    keyof typeof MEDIA_PART_SAMPLES,
    ToolResultContentPart,
  ][]) {
    it(`${kind}: ${ANTHROPIC_TOOL_RESULT_COVERAGE[kind]}`, () => {
      const { block, changes } = convertToAnthropicToolResult(resultWithPart(part));
      const [sent] = block.content as unknown as JsonObject[];
      if (ANTHROPIC_TOOL_RESULT_COVERAGE[kind] === 'native') {
        expect(changes).toEqual([]);
        expect(sent?.['type']).toBe(part.type === 'image' ? 'image' : 'document');
      } else {
        expect(changes.map((change) => [change.part, change.kind])).toEqual([
          [kind, ANTHROPIC_TOOL_RESULT_COVERAGE[kind]],
        ]);
        expect(sent).toEqual({ type: 'text', text: describeMedia(part as MediaContentPart) });
      }
    });
  }

  it('sends URL sources and a text file as a plain-text document', () => {
    const convert = (part: ToolResultContentPart) =>
      (convertToAnthropicToolResult(resultWithPart(part)).block.content as unknown as JsonObject[])[0];
    expect(convert(MEDIA_PART_SAMPLES['image-url'])).toEqual({
      type: 'image',
      source: { type: 'url', url: 'https://example.test/chart.png' },
    });
    expect(convert(MEDIA_PART_SAMPLES['pdf-url'])).toEqual({
      type: 'document',
      source: { type: 'url', url: 'https://example.test/a.pdf' },
    });
    expect(convert(MEDIA_PART_SAMPLES['text-file-data'])).toEqual({
      type: 'document',
      source: { type: 'text', media_type: 'text/plain', data: 'a,b\n1,2\n' },
      title: 'rows.csv',
    });
  });

  it('matches the anthropic column of the coverage table of the tools guide (docs/guides/tools-and-checks.md)', () => {
    const readme = readFileSync(new URL('../../../docs/guides/tools-and-checks.md', import.meta.url), 'utf8');
    expect(coverageColumnOf(readme, 'anthropic')).toEqual(
      RESULT_PART_KINDS.map((kind) => ANTHROPIC_TOOL_RESULT_COVERAGE[kind]),
    );
  });
});
