// Tool results with images and files, through both Gemini SDKs against the recording server. The PNG, the
// PDF and every response are synthetic (see @toolcircuit/testing's synthetic-media.ts and conformance wires).
import { readFileSync } from 'node:fs';
import { type JsonObject, RESULT_PART_KINDS, type ToolResultContentPart } from '@toolcircuit/core';
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
  convertToGoogleToolResult,
  createGoogleModel,
  GOOGLE_GENAI_TOOL_RESULT_COVERAGE,
  GOOGLE_GENERATIVE_AI_TOOL_RESULT_COVERAGE,
} from '../src/index.js';

const common = { apiKey: 'test-key-not-a-secret', env: {} } as const;
const LIMIT_TEXT = /image of 20971520 bytes, over the limit of 10485760 bytes \(resultLimits\.maxImageBytes\)/;

// Gemini's stream chunks are whole responses.
const streamed = (response: JsonObject): string => `data: ${JSON.stringify(response)}\r\n\r\n`;

function lastContents(body: JsonObject, count: number): JsonObject[] {
  return (body['contents'] as JsonObject[]).slice(-count);
}

function expectGenaiShape(body: JsonObject): void {
  const [reply] = lastContents(body, 1);
  expect(reply?.['role']).toBe('user');
  const [page, fullPage] = ((reply?.['parts'] ?? []) as JsonObject[]).map(
    (part) => part['functionResponse'] as JsonObject,
  );
  expect(page).toEqual({
    name: 'capture_page',
    response: {
      output: expect.stringMatching(
        /^Captured https:\/\/example\.test\/report\.\n\[image \(image\/png\), 70 bytes, sha256 [0-9a-f]{16}\] \(attached as "2-image\.png"\)\n\[file "report\.pdf" .*\(attached as "3-report\.pdf"\)$/,
      ),
    },
    parts: [
      { inlineData: { mimeType: 'image/png', data: SYNTHETIC_PNG_BASE64, displayName: '2-image.png' } },
      { inlineData: { mimeType: 'application/pdf', data: SYNTHETIC_PDF_BASE64, displayName: '3-report.pdf' } },
    ],
  });
  expect(fullPage?.['name']).toBe('capture_full_page');
  expect(((fullPage?.['response'] ?? {}) as JsonObject)['error']).toMatch(LIMIT_TEXT);
}

function expectLegacyShape(body: JsonObject): void {
  const [reply, moved] = lastContents(body, 2);
  expect(reply?.['role']).toBe('function');
  const parts = (reply?.['parts'] ?? []) as JsonObject[];
  // The `function` role keeps only function responses, with no `parts` of their own.
  expect(parts.every((part) => Object.keys(part).join() === 'functionResponse')).toBe(true);
  expect(((parts[0]?.['functionResponse'] ?? {}) as JsonObject)['parts']).toBeUndefined();
  expect(moved).toEqual({
    role: 'user',
    parts: [
      { text: 'Attachments of the result of function capture_page:' },
      { inlineData: { mimeType: 'image/png', data: SYNTHETIC_PNG_BASE64 } },
      { inlineData: { mimeType: 'application/pdf', data: SYNTHETIC_PDF_BASE64 } },
    ],
  });
}

const SDKS = [
  { sdk: 'genai', coverage: GOOGLE_GENAI_TOOL_RESULT_COVERAGE, expectShape: expectGenaiShape },
  { sdk: 'generative-ai', coverage: GOOGLE_GENERATIVE_AI_TOOL_RESULT_COVERAGE, expectShape: expectLegacyShape },
] as const;

describe('gemini tool results with media', () => {
  for (const { sdk, coverage, expectShape } of SDKS) {
    for (const path of ['generate', 'stream'] as const) {
      it(`@google/${sdk} (${path}): sends the coverage table's shape, refuses a 20 MiB image and goes on`, async () => {
        const run = await runMediaResultScenario({
          protocol: 'gemini',
          createModel: ({ baseURL, modelId }) => createGoogleModel({ ...common, sdk, model: modelId, baseURL }),
          ...(path === 'stream' ? { stream: streamed } : {}),
        });
        expect(run.requests[0]?.path).toContain(path === 'stream' ? ':streamGenerateContent' : ':generateContent');
        expect(mediaResultProblems(run, coverage)).toEqual([]);
        expectShape(run.bodies[1] as JsonObject);
      });
    }
  }
});

describe('convertToGoogleToolResult follows the coverage tables', () => {
  for (const [kind, part] of Object.entries(MEDIA_PART_SAMPLES) as [
    keyof typeof MEDIA_PART_SAMPLES,
    ToolResultContentPart,
  ][]) {
    for (const { sdk, coverage } of SDKS) {
      it(`${kind} on @google/${sdk}: ${coverage[kind]}`, () => {
        const converted = convertToGoogleToolResult(resultWithPart(part), {
          providerName: 'capture',
          functionResponseParts: sdk === 'genai',
        });
        const expected = coverage[kind];
        expect(converted.changes.map((change) => [change.part, change.kind])).toEqual(
          expected === 'native' ? [] : [[kind, expected]],
        );
        expect(converted.functionResponse.parts?.length ?? 0).toBe(expected === 'native' ? 1 : 0);
        // Moved: the line naming the call, then the part.
        expect(converted.moved.length).toBe(expected === 'moved' ? 2 : 0);
      });
    }
  }

  it('sends a URL part as fileData and keeps a single JSON part a Struct', () => {
    const converted = convertToGoogleToolResult(resultWithPart(MEDIA_PART_SAMPLES['pdf-url']), {
      providerName: 'capture',
      functionResponseParts: true,
    });
    expect(converted.functionResponse.parts).toEqual([
      { fileData: { mimeType: 'application/pdf', fileUri: 'https://example.test/a.pdf', displayName: '1-file.pdf' } },
    ]);
    const json = convertToGoogleToolResult(resultWithPart({ type: 'json', value: { a: 1 } }), {
      providerName: 'capture',
      functionResponseParts: true,
    });
    expect(json.functionResponse.response).toEqual({ output: { a: 1 } });
  });

  it('match the google columns of the coverage table of the tools guide (docs/guides/tools-and-checks.md)', () => {
    const readme = readFileSync(new URL('../../../docs/guides/tools-and-checks.md', import.meta.url), 'utf8');
    expect(coverageColumnOf(readme, 'google.genai')).toEqual(
      RESULT_PART_KINDS.map((k) => GOOGLE_GENAI_TOOL_RESULT_COVERAGE[k]),
    );
    expect(coverageColumnOf(readme, 'google.generative-ai')).toEqual(
      RESULT_PART_KINDS.map((k) => GOOGLE_GENERATIVE_AI_TOOL_RESULT_COVERAGE[k]),
    );
  });
});
