// Request bodies that carry images and documents (base64 inside JSON, as every provider takes them) through
// the recorder and back through the replay server. The PNG and PDF are synthetic (src/media/synthetic-media.ts).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  loadCassette,
  type RecordingServer,
  SYNTHETIC_PDF_BASE64,
  SYNTHETIC_PNG_BASE64,
  startRecorder,
  startRecordingServer,
  startReplayServer,
} from '../src/index.js';

// A Messages request whose tool result holds an image and a PDF, plus a large image (2 MiB of base64 text).
const LARGE_BASE64 = Buffer.alloc(1536 * 1024, 7).toString('base64');
const BODY = {
  model: 'claude-test',
  max_tokens: 100,
  messages: [
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_1',
          content: [
            { type: 'text', text: 'Captured.' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: SYNTHETIC_PNG_BASE64 } },
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: SYNTHETIC_PDF_BASE64 } },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: LARGE_BASE64 } },
          ],
        },
      ],
    },
  ],
};
const ANSWER = { id: 'msg_1', type: 'message', content: [{ type: 'text', text: 'One chart.' }] };

let upstream: RecordingServer;
let folder: string;
beforeEach(async () => {
  upstream = await startRecordingServer(() => ({ contentType: 'application/json', text: JSON.stringify(ANSWER) }));
  folder = await mkdtemp(join(tmpdir(), 'toolcircuit-media-'));
});
afterEach(async () => {
  await upstream.close();
  await rm(folder, { recursive: true, force: true });
});

describe('bodies with media', () => {
  it('are forwarded byte for byte, recorded with their base64 intact (not taken for secrets), and replayed', async () => {
    const recorder = await startRecorder({
      target: upstream.url,
      protocol: 'anthropic-messages',
      outFile: join(folder, 'anthropic', 'media.json'),
    });
    const text = JSON.stringify(BODY);
    const response = await fetch(`${recorder.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'sk-ant-test-0123456789abcdef' },
      body: text,
    });
    expect(await response.json()).toEqual(ANSWER);
    expect(upstream.requests[0]?.text).toBe(text);
    await recorder.close();

    const cassette = loadCassette('anthropic/media', { directory: folder });
    expect(cassette.interactions[0]?.request.body).toEqual(BODY);
    const replay = await startReplayServer(cassette);
    try {
      const again = await fetch(`${replay.url}/v1/messages`, { method: 'POST', body: text });
      expect(await again.json()).toEqual(ANSWER);
      expect(replay.mismatches).toEqual([]);
      expect(replay.received[0]?.body).toEqual(BODY);
    } finally {
      await replay.close();
    }
  });
});
