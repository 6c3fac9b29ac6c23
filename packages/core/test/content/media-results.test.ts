import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createCatalogue,
  createSession,
  DEFAULT_MAX_IMAGE_BYTES,
  defineTool,
  describeMedia,
  type ExecutionContext,
  everySession,
  executeCall,
  type ImageContentPart,
  InMemoryJournal,
  journalContentOf,
  mediaBase64,
  mediaByteLength,
  mediaDigest,
  resultPartKindOf,
  runLoop,
  type ToolOutput,
  toolResultText,
} from '../../src/index.js';
import { call, callsTurn, scripted, textTurn } from '../support.js';

// Synthetic bytes: no real image is needed to check sizes, types, digests and journaling.
const BYTES = Uint8Array.from([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3]);

async function runTool(output: ToolOutput, limits?: ExecutionContext['resultLimits']) {
  const catalogue = createCatalogue([
    defineTool({
      name: 'capture',
      description: 'Returns what the test gives it.',
      inputSchema: { type: 'object', properties: {} },
      right: everySession,
      run: () => output,
    }),
  ]);
  const journal = new InMemoryJournal();
  const session = createSession({ id: 's1', humanId: 'alice', rights: [] });
  const context: ExecutionContext = {
    catalogue,
    session,
    journal,
    runId: 'run-1',
    turn: 1,
    ...(limits === undefined ? {} : { resultLimits: limits }),
  };
  const outcome = await executeCall(call('c1', 'capture', {}), context);
  return { outcome, journal };
}

describe('images and files in tool results', () => {
  it('keeps text, image and file parts in order, and journals digests, media types and sizes, not bytes', async () => {
    const { outcome, journal } = await runTool({
      isError: false,
      content: [
        { type: 'text', text: 'captured' },
        { type: 'image', mediaType: 'image/png', data: BYTES },
        { type: 'file', mediaType: 'application/pdf', name: 'r.pdf', url: 'https://example.test/r.pdf' },
      ],
    });
    expect(outcome.verdict.kind).toBe('executed');
    expect(outcome.result.content).toEqual([
      { type: 'text', text: 'captured' },
      { type: 'image', mediaType: 'image/png', data: BYTES },
      { type: 'file', mediaType: 'application/pdf', name: 'r.pdf', url: 'https://example.test/r.pdf' },
    ]);
    const [entry] = journal.entries;
    expect(entry?.outputMedia).toEqual([
      { type: 'image', mediaType: 'image/png', bytes: BYTES.byteLength, sha256: sha256(BYTES) },
      {
        type: 'file',
        mediaType: 'application/pdf',
        name: 'r.pdf',
        url: 'https://example.test/r.pdf',
        sha256: sha256(Buffer.from('https://example.test/r.pdf')),
      },
    ]);
    expect(JSON.stringify(journal.entries)).not.toContain(Buffer.from(BYTES).toString('base64'));
    expect(toolResultText(outcome.result.content)).toMatch(
      /^captured\n\[image \(image\/png\), 11 bytes, sha256 [0-9a-f]{16}\]\n\[file "r\.pdf" \(application\/pdf\) at https:\/\/example\.test\/r\.pdf\]$/,
    );
  });

  it('refuses an image over the limit with an isError result naming the limit and the option', async () => {
    const big = new Uint8Array(DEFAULT_MAX_IMAGE_BYTES + 1);
    const { outcome, journal } = await runTool({
      isError: false,
      content: [{ type: 'image', mediaType: 'image/png', data: big }],
    });
    expect(outcome.result.isError).toBe(true);
    expect(toolResultText(outcome.result.content)).toContain(
      `image of ${DEFAULT_MAX_IMAGE_BYTES + 1} bytes, over the limit of ${DEFAULT_MAX_IMAGE_BYTES} bytes (resultLimits.maxImageBytes)`,
    );
    expect(journal.entries[0]?.verdict).toBe('failed');
  });

  it('takes the limits from the context', async () => {
    const part = { type: 'file', mediaType: 'text/plain', data: 'aGVsbG8=' } as const;
    const refused = await runTool({ isError: false, content: [part] }, { maxFileBytes: 4 });
    expect(toolResultText(refused.outcome.result.content)).toContain(
      'over the limit of 4 bytes (resultLimits.maxFileBytes)',
    );
    const accepted = await runTool({ isError: false, content: [part] }, { maxFileBytes: 5 });
    expect(accepted.outcome.result.isError).toBe(false);
  });

  it("takes the loop's resultLimits, and the run goes on after a refused part", async () => {
    const model = scripted([callsTurn([call('c1', 'capture', {})]), textTurn('The capture was too large.')]);
    const catalogue = createCatalogue([
      defineTool({
        name: 'capture',
        description: 'Returns an image.',
        inputSchema: { type: 'object', properties: {} },
        right: everySession,
        run: () => ({ isError: false, content: [{ type: 'image', mediaType: 'image/png', data: BYTES }] }),
      }),
    ]);
    const result = await runLoop({
      model,
      catalogue,
      session: createSession({ id: 's1', humanId: 'alice', rights: [] }),
      messages: [{ role: 'user', content: 'capture' }],
      resultLimits: { maxImageBytes: 10 },
    });
    expect(result.status).toBe('completed');
    const reply = model.requests[1]?.messages.at(-1);
    expect(reply?.role === 'tool' && reply.content[0]?.isError).toBe(true);
    expect(JSON.stringify(reply)).toContain('over the limit of 10 bytes (resultLimits.maxImageBytes)');
  });

  it('takes a sound as a file part (described as audio wherever only text can go), up to the file limit', async () => {
    const sound = { type: 'file', mediaType: 'audio/wav', name: 'note.wav', data: BYTES } as const;
    const { outcome } = await runTool({ isError: false, content: [sound] });
    expect(outcome.result.isError).toBe(false);
    expect(outcome.result.content).toEqual([sound]);
    expect(describeMedia(sound)).toBe(`[audio "note.wav" (audio/wav), 11 bytes, sha256 ${sha256(BYTES).slice(0, 16)}]`);
    expect(resultPartKindOf(sound)).toBe('audio-data');
    const over = await runTool({ isError: false, content: [sound] }, { maxFileBytes: 10 });
    expect(toolResultText(over.outcome.result.content)).toContain(
      'over the limit of 10 bytes (resultLimits.maxFileBytes)',
    );
    const unknown = await runTool({ isError: false, content: [{ ...sound, mediaType: 'audio/x-unknown' }] });
    expect(toolResultText(unknown.outcome.result.content)).toMatch(/unsupported media type "audio\/x-unknown"/);
  });

  it('refuses unsupported media types, non-http URLs and data that is not base64, saying which', async () => {
    const cases: [unknown, RegExp][] = [
      [
        { type: 'image', mediaType: 'image/tiff', data: BYTES },
        /unsupported media type "image\/tiff" \(supported: image\/png/,
      ],
      [{ type: 'file', mediaType: 'application/zip', data: BYTES }, /unsupported media type "application\/zip"/],
      [{ type: 'image', mediaType: 'image/png', url: 'file:///etc/passwd' }, /URL is not an http\(s\) URL/],
      [{ type: 'image', mediaType: 'image/png', data: 'not base64!' }, /neither bytes nor base64/],
    ];
    for (const [part, message] of cases) {
      const { outcome } = await runTool({ isError: false, content: [part] } as ToolOutput);
      expect(outcome.result.isError).toBe(true);
      expect(toolResultText(outcome.result.content)).toMatch(message);
    }
  });

  it('encodes a part once, whoever asks, and measures base64 without decoding it', () => {
    const part: ImageContentPart = { type: 'image', mediaType: 'image/png', data: BYTES };
    const first = mediaBase64(part);
    expect(mediaBase64(part)).toBe(first);
    expect(first).toBe(Buffer.from(BYTES).toString('base64'));
    const given: ImageContentPart = { type: 'image', mediaType: 'image/png', data: first ?? '' };
    expect(mediaByteLength(given)).toBe(BYTES.byteLength);
    expect(mediaDigest(given)).toBe(sha256(BYTES));
  });

  it('keeps the bytes in journal form only when asked', () => {
    const content = [{ type: 'image', mediaType: 'image/png', data: BYTES }] as const;
    expect(journalContentOf(content)).toEqual([
      { type: 'image', mediaType: 'image/png', bytes: 11, sha256: sha256(BYTES) },
    ]);
    expect(journalContentOf(content, { keepMediaBytes: true })).toEqual([
      {
        type: 'image',
        mediaType: 'image/png',
        bytes: 11,
        sha256: sha256(BYTES),
        data: Buffer.from(BYTES).toString('base64'),
      },
    ]);
    const plain = [{ type: 'text', text: 'only text' }] as const;
    expect(journalContentOf(plain)).toBe(plain);
  });
});

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
