// The shared recording server (@toolcircuit/testing), closed after each test of this suite: it has an
// explicit close() because a published package does not depend on vitest.
import { type RecordingServer, type ReplyScript, startRecordingServer } from '@toolcircuit/testing';
import { afterEach } from 'vitest';

const servers: RecordingServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** `startRecordingServer(reply)`, closed after the current test. */
export async function startTestRecordingServer(reply: ReplyScript): Promise<RecordingServer> {
  const server = await startRecordingServer(reply);
  servers.push(server);
  return server;
}
