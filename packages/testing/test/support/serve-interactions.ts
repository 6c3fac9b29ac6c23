import { type Cassette, type Interaction, type ReplayServer, startReplayServer } from '../../src/index.js';

/**
 * Replay servers for synthetic interactions, closed together: call `closeAll` from the test file's
 * `afterEach`. The cassette is labelled synthetic with `note`.
 */
export function replayServers(note: string) {
  const open: ReplayServer[] = [];
  return {
    async serve(interactions: Interaction[], options?: Parameters<typeof startReplayServer>[1]) {
      const cassette: Cassette = {
        format: 'toolcircuit-cassette/1',
        protocol: 'anthropic-messages',
        provenance: { kind: 'synthetic', note },
        interactions,
      };
      const server = await startReplayServer(cassette, options);
      open.push(server);
      return server;
    },
    /** Close this one too (a server started from a real cassette). */
    track(server: ReplayServer): ReplayServer {
      open.push(server);
      return server;
    },
    /** Forget the servers opened so far (a test that closed them itself). */
    forget(): void {
      open.splice(0);
    },
    async closeAll(): Promise<void> {
      await Promise.all(open.splice(0).map((server) => server.close()));
    },
  };
}
