import { createHash } from 'node:crypto';
import type { JournalEntry, ToolResultPart } from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { callRecordOf } from '../../src/journal/journal-policy.js';

// Synthetic bytes standing for a screenshot.
const BYTES = Uint8Array.from([137, 80, 78, 71, 1, 2, 3, 4]);
const BASE64 = Buffer.from(BYTES).toString('base64');
const ENTRY: JournalEntry = {
  at: '2026-01-01T00:00:00.000Z',
  runId: 'r1',
  sessionId: 's1',
  humanId: 'h1',
  turn: 1,
  callId: 'c1',
  toolName: 'capture',
  input: {},
  inputDigest: null,
  verdict: 'executed',
  durationMs: 1,
};
const RESULT: ToolResultPart = {
  type: 'tool_result',
  callId: 'c1',
  name: 'capture',
  isError: false,
  content: [
    { type: 'text', text: 'captured' },
    { type: 'image', mediaType: 'image/png', data: BYTES },
  ],
};

describe('a store journal with images in results', () => {
  it('keeps each image as digest, media type and size by default', () => {
    const record = callRecordOf(ENTRY, { result: RESULT }, {});
    expect(record.output?.content).toEqual([
      { type: 'text', text: 'captured' },
      { type: 'image', mediaType: 'image/png', bytes: 8, sha256: createHash('sha256').update(BYTES).digest('hex') },
    ]);
    expect(JSON.stringify(record)).not.toContain(BASE64);
  });

  it('keeps the bytes with keepMediaBytes', () => {
    const record = callRecordOf(ENTRY, { result: RESULT }, { keepMediaBytes: true });
    expect(JSON.stringify(record.output?.content)).toContain(`"data":"${BASE64}"`);
  });
});
