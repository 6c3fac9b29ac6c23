import type { Command } from '../command.js';
import { UsageError } from '../errors/usage-error.js';
import { ExitCode } from '../exit-codes.js';
import { existing, portOf, SERVE_OPTIONS, serveUntilStopped } from '../trace/serve-until-stopped.js';

export const traceOpenCommand: Command = {
  name: 'trace open',
  summary: 'Show a trace file or journal export in the trace viewer (served on 127.0.0.1).',
  usage: 'toolcircuit trace open <file> [--port <n>] [--browser]',
  description: [
    'Serves the trace viewer and the file on 127.0.0.1 and prints the address to open. The file is a trace',
    'written by `toolcircuit demo --trace <file>` (or @toolcircuit/otel), or a journal export: a JSON array or',
    'JSON lines of journal entries or store rows. The viewer shows the run as a timeline: turns, calls, the',
    'verdict of each with its reason, pauses and approvals, errors and usage. Ctrl-C stops the server.',
  ].join('\n'),
  options: SERVE_OPTIONS,
  examples: ['toolcircuit demo --trace run.jsonl && toolcircuit trace open run.jsonl'],
  exitCodes: [
    [ExitCode.ok, 'stopped with Ctrl-C'],
    [ExitCode.usage, 'no file, a missing file, a bad --port or a port in use'],
  ],
  async run(args, io) {
    const [path, ...extra] = args.positionals;
    if (path === undefined || extra.length > 0) {
      throw new UsageError('trace open takes one file.', 'Usage: toolcircuit trace open run.jsonl');
    }
    const file = await existing(path, io.cwd, 'file');
    return serveUntilStopped({ file, port: portOf(args) }, args, io);
  },
};
