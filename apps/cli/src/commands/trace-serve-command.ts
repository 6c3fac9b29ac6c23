import type { Command } from '../command.js';
import { UsageError } from '../errors/usage-error.js';
import { ExitCode } from '../exit-codes.js';
import { existing, portOf, SERVE_OPTIONS, serveUntilStopped } from '../trace/serve-until-stopped.js';

export const traceServeCommand: Command = {
  name: 'trace serve',
  summary: 'Serve the trace viewer for every trace file in a folder (on 127.0.0.1).',
  usage: 'toolcircuit trace serve [folder] [--port <n>] [--browser]',
  description: [
    'Serves the trace viewer on 127.0.0.1 with the .jsonl, .ndjson and .json files directly in the folder',
    '(default: the current one) to choose from, read afresh on every request. Ctrl-C stops the server.',
  ].join('\n'),
  options: SERVE_OPTIONS,
  examples: ['toolcircuit trace serve traces/ --port 4318'],
  exitCodes: [
    [ExitCode.ok, 'stopped with Ctrl-C'],
    [ExitCode.usage, 'a missing folder, a bad --port or a port in use'],
  ],
  async run(args, io) {
    if (args.positionals.length > 1) throw new UsageError('trace serve takes at most one folder.');
    const folder = await existing(args.positionals[0] ?? '.', io.cwd, 'folder');
    return serveUntilStopped({ folder, port: portOf(args) }, args, io);
  },
};
