import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { McpEvent } from '@toolcircuit/mcp';
import { loadToolList } from '../catalogue/load-tool-list.js';
import type { Command } from '../command.js';
import { UsageError } from '../errors/usage-error.js';
import { ExitCode } from '../exit-codes.js';
import { formatLintHuman } from '../lint/format-lint-human.js';
import { countFindings, lintCatalogue } from '../lint/lint-catalogue.js';
import { DEFAULT_LINT_PROVIDERS } from '../lint/lint-providers.js';
import { importedToolsFile } from '../mcp/imported-tools-file.js';
import { mcpServerOfArgument } from '../mcp/mcp-server-of-argument.js';

export const mcpImportCommand: Command = {
  name: 'mcp import',
  summary: "Write an MCP server's tools, with pinned fingerprints, as a catalogue file, and lint it.",
  usage: 'toolcircuit mcp import <url> | -- <command> [args...] [--name <name>] [--out <file>]',
  description: [
    'Connects to the server (a URL: Streamable HTTP, falling back to HTTP+SSE; else a command started over',
    'stdio), lists its tools and writes them as an MCP tools/list file. Each tool keeps in `_meta` the',
    'fingerprint of its definition and the policy toolcircuit derives from its annotations (right',
    '`mcp:<name>`, irreversible unless the server says destructiveHint: false or readOnlyHint: true).',
    'Point "pins" of an mcpServers entry in toolcircuit.config.json at the file: `run` then refuses any',
    'tool whose definition changed since. The file is then linted like `toolcircuit lint` does.',
  ].join('\n'),
  options: {
    name: { type: 'string', valueName: 'name', description: 'short server name, used in rights (default: server)' },
    out: { type: 'string', short: 'o', valueName: 'file', description: 'output file (default mcp-<name>.tools.json)' },
    transport: { type: 'string', valueName: 'auto|streamable-http|sse', description: 'HTTP transport (default auto)' },
    header: {
      type: 'string',
      multiple: true,
      valueName: 'name=ENV_VAR',
      description: 'send an HTTP header whose value is read from an environment variable',
    },
  },
  examples: [
    'toolcircuit mcp import --name fs -- npx -y @modelcontextprotocol/server-filesystem ./data',
    'toolcircuit mcp import http://127.0.0.1:3000/mcp --name docs --header Authorization=DOCS_AUTH',
  ],
  exitCodes: [
    [ExitCode.ok, 'file written, no lint error'],
    [ExitCode.failed, 'file written; lint found errors'],
    [ExitCode.usage, 'bad flag, no server given, server could not be started or reached'],
  ],
  async run(args, io) {
    const name = args.string('name') ?? 'server';
    const transport = args.choice('transport', ['auto', 'streamable-http', 'sse'], 'auto');
    const headers: Record<string, string> = {};
    for (const pair of args.list('header')) {
      const [header, variable] = pair.split('=', 2);
      const value = variable === undefined ? undefined : io.env[variable];
      if (header === undefined || header === '' || variable === undefined) {
        throw new UsageError(`--header ${pair} is not name=ENV_VAR.`, 'e.g. --header Authorization=MY_TOKEN_VAR');
      }
      if (value === undefined) throw new UsageError(`--header ${header}: ${variable} is not set.`);
      headers[header] = value;
    }
    const server = mcpServerOfArgument(args.positionals, transport, headers);
    const notes: string[] = [];
    // Loaded on use: the MCP SDK is heavy, and every other command starts without it.
    const { connectMcpServer } = await import('@toolcircuit/mcp');
    const connection = await connectMcpServer({
      name,
      server,
      onEvent: (event: McpEvent) => {
        if (event.type === 'tool-skipped') notes.push(`skipped ${event.mcpName}: ${event.reason}`);
      },
    }).catch((error: unknown) => {
      throw new UsageError(
        `could not connect to the MCP server: ${error instanceof Error ? error.message : String(error)}`,
        'Check the command or URL (a command with flags goes after `--`).',
        { cause: error },
      );
    });
    try {
      const out = resolve(io.cwd, args.string('out') ?? `mcp-${name}.tools.json`);
      const where =
        'url' in server ? { url: String(server.url) } : { command: server.command, args: server.args ?? [] };
      await writeFile(out, `${JSON.stringify(importedToolsFile(connection, where), null, 2)}\n`);
      const tools = connection.tools();
      const irreversible = tools.filter((tool) => tool.irreversible).map((tool) => tool.name);
      io.stdout.write(`wrote ${tools.length} tool(s) of "${name}" to ${out}\n`);
      io.stdout.write(`needs confirmation: ${irreversible.length === 0 ? 'none' : irreversible.join(', ')}\n`);
      for (const note of notes) io.stdout.write(`${note}\n`);
      // Lint the file as written, exactly as `toolcircuit lint <file>` would read it.
      const report = lintCatalogue(out, await loadToolList(out), { providers: DEFAULT_LINT_PROVIDERS });
      io.stdout.write(formatLintHuman([report], countFindings(report.findings)));
      return countFindings(report.findings).error > 0 ? ExitCode.failed : ExitCode.ok;
    } finally {
      await connection.close();
    }
  },
};
