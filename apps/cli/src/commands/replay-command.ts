import { basename, dirname, resolve } from 'node:path';
import { loadCassette, startReplayServer } from '@toolcircuit/testing';
import type { Command } from '../command.js';
import { UsageError } from '../errors/usage-error.js';
import { ExitCode } from '../exit-codes.js';
import { sdkBaseUrl } from '../sdk-base-url.js';
import { waitUntil } from '../wait-until.js';

export const replayCommand: Command = {
  name: 'replay',
  summary: 'Serve a cassette on 127.0.0.1 so an official SDK (or `toolcircuit run`) replays it offline.',
  usage: 'toolcircuit replay <cassette.json> [--exit-when-done]',
  description: [
    'Answers each request with the next recorded interaction, in order; a request that does not match',
    '(method and path) is answered with status 599 and reported. Prints the URL to point the SDK at:',
    'Anthropic and Gemini take it as it is, OpenAI with /v1 appended (the line "base URL:" shows the right one).',
    'Stops on Ctrl-C, or with --exit-when-done once every interaction has been served.',
  ].join('\n'),
  options: {
    'exit-when-done': { type: 'boolean', description: 'stop once every interaction has been served' },
  },
  examples: [
    'toolcircuit replay cassettes/demo/anthropic-messages.json',
    'TOOLCIRCUIT_BASE_URL=<base URL> TOOLCIRCUIT_MODEL=anthropic:claude-haiku-4-5 toolcircuit run …',
  ],
  exitCodes: [
    [ExitCode.ok, 'stopped with no mismatching request'],
    [ExitCode.failed, 'some request did not match the cassette'],
    [ExitCode.usage, 'missing file, invalid JSON, not a toolcircuit-cassette/1 file'],
  ],
  async run(args, io) {
    const [file, ...extra] = args.positionals;
    if (file === undefined) throw new UsageError('no cassette given.', 'Usage: toolcircuit replay <cassette.json>');
    if (extra.length > 0) throw new UsageError(`replay takes one cassette, got ${args.positionals.length}.`);
    if (!file.endsWith('.json')) throw new UsageError(`cassette ${file} must be a .json file.`);
    const path = resolve(io.cwd, file);
    const cassette = loadCassette(basename(path), { directory: dirname(path) });
    const server = await startReplayServer(cassette);
    const total = cassette.interactions.length;
    io.stdout.write(
      [
        `toolcircuit replay: serving ${file} (${cassette.protocol}, ${cassette.provenance.kind}, ${total} interaction(s))`,
        `url: ${server.url}`,
        `base URL: ${sdkBaseUrl(cassette.protocol, server.url)}`,
        args.flag('exit-when-done') ? 'Stops once every interaction is served (or on Ctrl-C).' : 'Ctrl-C to stop.',
        '',
      ].join('\n'),
    );
    let reported = 0;
    const report = () => {
      for (const mismatch of server.mismatches.slice(reported)) {
        io.stderr.write(
          `mismatch: request #${mismatch.index + 1} ${mismatch.received.method} ${mismatch.received.path}: ${mismatch.reason}\n`,
        );
      }
      reported = server.mismatches.length;
    };
    await waitUntil(() => {
      report();
      return args.flag('exit-when-done') && server.remaining === 0;
    }, io.signal);
    await server.close();
    report();
    io.stdout.write(
      `served ${total - server.remaining}/${total} interaction(s), ${server.mismatches.length} mismatch(es)\n`,
    );
    return server.mismatches.length === 0 ? ExitCode.ok : ExitCode.failed;
  },
};
