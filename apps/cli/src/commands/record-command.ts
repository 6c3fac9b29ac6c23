import { resolve } from 'node:path';
import { type CassetteProtocol, startRecorder } from '@toolcircuit/testing';
import type { Command } from '../command.js';
import { UsageError } from '../errors/usage-error.js';
import { ExitCode } from '../exit-codes.js';
import { sdkBaseUrl } from '../sdk-base-url.js';
import { waitUntil } from '../wait-until.js';

const PROTOCOLS = [
  'anthropic-messages',
  'openai-chat',
  'openai-responses',
  'gemini',
] as const satisfies readonly CassetteProtocol[];

export const recordCommand: Command = {
  name: 'record',
  summary: 'Record real provider traffic into a cassette through a local, key-scrubbing proxy.',
  usage: 'toolcircuit record --target <api-root> --out <cassette.json> [--protocol <p>] [--count <n>]',
  description: [
    'Starts a proxy on 127.0.0.1 that forwards each request to --target unchanged (the key travels in the',
    "SDK's own headers) and streams the answer back. Point the SDK, or TOOLCIRCUIT_BASE_URL, at the printed",
    '"base URL:". On Ctrl-C (or after --count exchanges) the cassette is written with keys, cookies and',
    'account ids scrubbed. --protocol is guessed for api.anthropic.com and generativelanguage.googleapis.com;',
    `for OpenAI say which API: ${PROTOCOLS.join(', ')}.`,
  ].join('\n'),
  options: {
    target: { type: 'string', valueName: 'url', description: 'the real API root, e.g. https://api.anthropic.com' },
    out: {
      type: 'string',
      short: 'o',
      valueName: 'file',
      description: 'where to write the cassette (folders are created)',
    },
    protocol: { type: 'string', valueName: 'name', description: `wire protocol: ${PROTOCOLS.join(', ')}` },
    model: { type: 'string', valueName: 'id', description: 'model id to store (default: read from the first request)' },
    note: { type: 'string', valueName: 'text', description: 'a note stored in the cassette provenance' },
    count: { type: 'string', valueName: 'n', description: 'stop after n exchanges (default: on Ctrl-C)' },
  },
  examples: [
    'toolcircuit record --target https://api.anthropic.com --out cassettes/my-run.json',
    'toolcircuit record --target https://api.openai.com --protocol openai-responses --out r.json --count 3',
  ],
  exitCodes: [
    [ExitCode.ok, 'the cassette was written'],
    [ExitCode.failed, 'nothing was recorded (every upstream exchange failed, or none happened)'],
    [ExitCode.usage, 'missing --target or --out, unknown --protocol'],
  ],
  async run(args, io) {
    const target = args.string('target');
    const out = args.string('out');
    if (target === undefined)
      throw new UsageError('no --target given.', 'Name the real API, e.g. --target https://api.anthropic.com');
    if (out === undefined)
      throw new UsageError('no --out given.', 'Name the cassette to write, e.g. --out cassettes/run.json');
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      throw new UsageError(`--target "${target}" is not a URL.`, 'Write the API root, e.g. https://api.openai.com');
    }
    const protocol = args.choice('protocol', PROTOCOLS) ?? guessProtocol(url);
    const count = args.integer('count', { min: 1 });
    const outFile = resolve(io.cwd, out);
    const model = args.string('model');
    const note = args.string('note');
    const recorder = await startRecorder({
      target,
      protocol,
      outFile,
      ...(model === undefined ? {} : { model }),
      ...(note === undefined ? {} : { note }),
    });
    io.stdout.write(
      [
        `toolcircuit record: ${protocol} via ${url.origin}`,
        `url: ${recorder.url}`,
        `base URL: ${sdkBaseUrl(protocol, recorder.url)}`,
        count === undefined
          ? 'Ctrl-C to stop and write the cassette.'
          : `Stops after ${count} exchange(s) (or on Ctrl-C).`,
        '',
      ].join('\n'),
    );
    await waitUntil(
      () => count !== undefined && recorder.interactions.length + recorder.failures.length >= count,
      io.signal,
    );
    for (const failure of recorder.failures) io.stderr.write(`upstream failure: ${failure}\n`);
    try {
      const cassette = await recorder.close();
      io.stdout.write(`recorded ${cassette.interactions.length} interaction(s) to ${out} (keys scrubbed)\n`);
      return ExitCode.ok;
    } catch (error) {
      io.stderr.write(`toolcircuit record: ${(error as Error).message}\n`);
      return ExitCode.failed;
    }
  },
};

function guessProtocol(url: URL): CassetteProtocol {
  if (url.hostname === 'api.anthropic.com') return 'anthropic-messages';
  if (url.hostname === 'generativelanguage.googleapis.com') return 'gemini';
  throw new UsageError(
    `cannot tell the wire protocol of ${url.origin}.`,
    `Add --protocol: ${PROTOCOLS.join(', ')} (OpenAI has two APIs: chat completions and responses).`,
  );
}
