import { existsSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { loadCassette, startReplayServer } from '@toolcircuit/testing';
import type { Command } from '../command.js';
import { UsageError } from '../errors/usage-error.js';
import { ExitCode } from '../exit-codes.js';
import { sdkBaseUrl } from '../sdk-base-url.js';
import { waitUntil } from '../wait-until.js';

/** With --exit-when-done, how long the server waits for the next request before it calls the replay over. */
const DEFAULT_IDLE_SECONDS = 30;

export const replayCommand: Command = {
  name: 'replay',
  summary: 'Serve a cassette on 127.0.0.1 so an official SDK (or `toolcircuit run`) replays it offline.',
  usage: 'toolcircuit replay <cassette.json> [--port <n>] [--exit-when-done] [--idle <seconds>] [--match-body]',
  description: [
    'Answers each request with the next recorded interaction, in order. A request that does not match is',
    'answered with status 599 and reported with a hint: another method or path, a stream asked for where a',
    'single JSON body was recorded (or the reverse), and with --match-body a recorded body field that differs.',
    'Prints the URL to point the SDK at: Anthropic and Gemini take it as it is, OpenAI with /v1 appended (the',
    'line "base URL:" shows the right one).',
    '',
    'With --exit-when-done it stops once every interaction has been served, at the first mismatch, or after',
    `--idle seconds without a request (default ${DEFAULT_IDLE_SECONDS}), and fails unless every interaction was served`,
    "without a mismatch (like nock's isDone()). Without it, it runs until Ctrl-C.",
  ].join('\n'),
  options: {
    port: { type: 'string', valueName: 'n', description: 'port on 127.0.0.1 (default: a free one)' },
    'exit-when-done': {
      type: 'boolean',
      description: 'stop when every interaction is served, at a mismatch, or when idle; fail if any is left',
    },
    idle: {
      type: 'string',
      valueName: 'seconds',
      description: `with --exit-when-done: give up after this long without a request (default ${DEFAULT_IDLE_SECONDS})`,
    },
    'match-body': { type: 'boolean', description: 'also require the recorded request body fields' },
  },
  examples: [
    'toolcircuit replay cassettes/demo/anthropic-messages.json --port 8787',
    'TOOLCIRCUIT_BASE_URL=<base URL> TOOLCIRCUIT_MODEL=anthropic:claude-haiku-5-5 toolcircuit run …',
  ],
  exitCodes: [
    [ExitCode.ok, 'stopped with no mismatching request (and, with --exit-when-done, every interaction served)'],
    [ExitCode.failed, 'a request did not match the cassette, or (--exit-when-done) an interaction was never served'],
    [
      ExitCode.usage,
      'missing file, invalid JSON, not a toolcircuit-cassette/1 file, bad --port or --idle, port in use',
    ],
  ],
  async run(args, io) {
    const [file, ...extra] = args.positionals;
    if (file === undefined) throw new UsageError('no cassette given.', 'Usage: toolcircuit replay <cassette.json>');
    if (extra.length > 0) throw new UsageError(`replay takes one cassette, got ${args.positionals.length}.`);
    if (!file.endsWith('.json')) throw new UsageError(`cassette ${file} must be a .json file.`);
    const port = integerFlag(args.string('port'), '--port', 0, 65535);
    const idleSeconds = integerFlag(args.string('idle'), '--idle', 1, 86400) ?? DEFAULT_IDLE_SECONDS;
    const exitWhenDone = args.flag('exit-when-done');
    const path = resolve(io.cwd, file);
    if (!existsSync(path)) throw new UsageError(`no such file: ${file} (looked for ${path}).`);
    const cassette = loadCassette(basename(path), { directory: dirname(path) });
    const server = await startReplayServer(cassette, {
      ...(port === undefined ? {} : { port }),
      matchBody: args.flag('match-body'),
    }).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
        throw new UsageError(
          `port ${port} is already in use on 127.0.0.1.`,
          'Choose another with --port, or --port 0.',
        );
      }
      throw error;
    });
    const total = cassette.interactions.length;
    io.stdout.write(
      [
        `toolcircuit replay: serving ${file} (${cassette.protocol}, ${cassette.provenance.kind}, ${total} interaction(s))`,
        `url: ${server.url}`,
        `base URL: ${sdkBaseUrl(cassette.protocol, server.url)}`,
        exitWhenDone
          ? `Stops once every interaction is served, at a mismatch, or after ${idleSeconds}s without a request.`
          : 'Ctrl-C to stop.',
        '',
      ].join('\n'),
    );
    let reported = 0;
    const report = () => {
      for (const mismatch of server.mismatches.slice(reported)) {
        io.stderr.write(
          `mismatch: request #${mismatch.index + 1} ${mismatch.received.method} ${mismatch.received.path}: ${mismatch.reason}\n`,
        );
        if (mismatch.hint !== undefined) io.stderr.write(`  hint: ${mismatch.hint}\n`);
      }
      reported = server.mismatches.length;
    };
    let seen = 0;
    let lastRequestAt = Date.now();
    let idle = false;
    await waitUntil(() => {
      report();
      if (server.received.length !== seen) {
        seen = server.received.length;
        lastRequestAt = Date.now();
      }
      if (!exitWhenDone) return false;
      idle = Date.now() - lastRequestAt >= idleSeconds * 1000;
      return server.isDone() || server.mismatches.length > 0 || idle;
    }, io.signal);
    await server.close();
    report();
    const served = total - server.remaining;
    io.stdout.write(`served ${served}/${total} interaction(s), ${server.mismatches.length} mismatch(es)\n`);
    if (server.remaining > 0) {
      const next = cassette.interactions[served]?.request;
      const why = idle ? ` (no request for ${idleSeconds}s)` : '';
      io.stderr.write(
        `not served: ${server.remaining} interaction(s)${why}, the next being ${next?.method} ${next?.path}\n`,
      );
    }
    const unserved = exitWhenDone && server.remaining > 0;
    return server.mismatches.length === 0 && !unserved ? ExitCode.ok : ExitCode.failed;
  },
};

function integerFlag(value: string | undefined, flag: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^\d+$/.test(value) || number < min || number > max) {
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, got "${value}".`);
  }
  return number;
}
