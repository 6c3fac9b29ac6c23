import { resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { Journal, JournalEntry } from '@toolcircuit/core';
import { loadCatalogueModule } from '../catalogue/load-catalogue-module.js';
import { operatorSession } from '../catalogue/operator-session.js';
import type { Command } from '../command.js';
import { UsageError } from '../errors/usage-error.js';
import { ExitCode } from '../exit-codes.js';

export const mcpServeCommand: Command = {
  name: 'mcp serve',
  summary: 'Serve a catalogue module as an MCP server (stdio, or Streamable HTTP on 127.0.0.1).',
  usage: 'toolcircuit mcp serve <catalogue-module> [--http] [--port <n>] [--right <name>]... [--human <id>]',
  description: [
    'Every tools/call goes through the four checks for ONE session: the operator who starts the server',
    "(--right / --human, else the module's exported `session`), never anything the client sends. An",
    "irreversible call is confirmed by the client's human through MCP elicitation, or refused with",
    'instructions when the client cannot ask. Each attempt is journaled as a JSON line on stderr.',
    'Over stdio, stdout carries the protocol only. --http listens on 127.0.0.1 and accepts loopback',
    'Host/Origin only; it has no authentication of its own, so keep it on this machine.',
  ].join('\n'),
  options: {
    http: { type: 'boolean', description: 'serve Streamable HTTP instead of stdio' },
    port: { type: 'string', valueName: 'n', description: 'HTTP port (default: any free port, printed)' },
    right: { type: 'string', short: 'r', multiple: true, valueName: 'name', description: 'a right the session holds' },
    human: { type: 'string', valueName: 'id', description: 'who the session acts for (default: $USER)' },
  },
  examples: [
    'toolcircuit mcp serve dist/catalogue.js --right dossiers:read',
    'toolcircuit mcp serve dist/catalogue.js --http --port 3000 --right dossiers:read --right dossiers:close',
  ],
  exitCodes: [
    [ExitCode.ok, 'the client disconnected (stdio) or the server was stopped (Ctrl-C)'],
    [ExitCode.usage, 'bad flag, missing module, a module that exports no catalogue'],
  ],
  async run(args, io) {
    const [moduleArg, ...extra] = args.positionals;
    if (moduleArg === undefined || extra.length > 0) {
      throw new UsageError('give exactly one catalogue module.', 'Usage: toolcircuit mcp serve <catalogue-module>');
    }
    const loaded = await loadCatalogueModule(resolve(io.cwd, moduleArg));
    const operator = operatorSession(args, loaded.session, io);
    // Loaded on use: the MCP SDK is heavy, and every other command starts without it.
    const { serveCatalogue, serveCatalogueHttp } = await import('@toolcircuit/mcp');
    const journal: Journal = {
      append: (entry: JournalEntry) => {
        io.stderr.write(`${JSON.stringify({ type: 'journal', ...entry })}\n`);
      },
    };
    // One operator, one session, whoever connects: its confirmations (the module's own store, or those
    // granted through a client's elicitation) are the operator's.
    const served = serveCatalogue(loaded.catalogue, { journal, sessionFor: () => operator });
    const port = args.integer('port', { min: 0, max: 65_535 });
    if (args.flag('http')) {
      const http = await serveCatalogueHttp(served, { host: '127.0.0.1', ...(port === undefined ? {} : { port }) });
      io.stdout.write(`serving ${loaded.catalogue.names.length} tool(s) at ${http.url.href}\n`);
      await new Promise<void>((resolve) => io.signal.addEventListener('abort', () => resolve(), { once: true }));
      await http.close();
      return ExitCode.ok;
    }
    if (port !== undefined) throw new UsageError('--port needs --http.');
    io.stderr.write(`serving ${loaded.catalogue.names.length} tool(s) over stdio for ${operator.humanId}\n`);
    const server = await served.serveStdio(io.stdin as Readable, io.stdout as unknown as Writable);
    await new Promise<void>((resolve) => {
      server.onclose = () => resolve();
      io.stdin.once('end', () => resolve());
      io.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await server.close();
    return ExitCode.ok;
  },
};
