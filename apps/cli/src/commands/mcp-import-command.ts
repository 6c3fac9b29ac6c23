import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { McpEvent, McpServerSpec } from '@toolcircuit/mcp';
import { loadToolList } from '../catalogue/load-tool-list.js';
import type { CliIo } from '../cli-io.js';
import type { Command } from '../command.js';
import { UsageError } from '../errors/usage-error.js';
import { ExitCode } from '../exit-codes.js';
import { formatLintHuman } from '../lint/format-lint-human.js';
import { countFindings, lintCatalogue } from '../lint/lint-catalogue.js';
import { DEFAULT_LINT_PROVIDERS } from '../lint/lint-providers.js';
import { importedToolsFile } from '../mcp/imported-tools-file.js';
import { mcpServerOfArgument } from '../mcp/mcp-server-of-argument.js';
import { mcpServerSpecOf } from '../mcp/mcp-server-spec-of.js';
import { oauthForCli } from '../mcp/oauth-for-cli.js';
import { passEnvOf } from '../mcp/pass-env-of.js';
import { loadCliConfig } from '../run/load-cli-config.js';

export const mcpImportCommand: Command = {
  name: 'mcp import',
  summary: "Write an MCP server's tools, with pinned fingerprints, as a catalogue file, and lint it.",
  usage:
    'toolcircuit mcp import <url> | --server <name> | -- <command> [args...] [--name <name>] [--out <file>] [--pass-env <VAR>]...',
  description: [
    'Connects to the server (a URL: Streamable HTTP, falling back to HTTP+SSE; else a command started over',
    'stdio), lists its tools and writes them as an MCP tools/list file. Each tool keeps in `_meta` the',
    'fingerprint of its definition and the policy toolcircuit derives from its annotations (right',
    '`mcp:<name>`, irreversible unless the server says destructiveHint: false or readOnlyHint: true).',
    'Point "pins" of an mcpServers entry in toolcircuit.config.json at the file: `run` then refuses any',
    'tool whose definition changed since. The file is then linted like `toolcircuit lint` does.',
    '',
    'A server started as a command gets only the safe variables (PATH, HOME…): --pass-env names the others it',
    'needs (an API key), read from this environment; --server <name> takes the command, its passEnv, or the',
    'URL and bearerTokenEnv from mcpServers.<name> of the config file. Values are never written to the file,',
    'only the names.',
    '',
    'An HTTP server that asks for OAuth: --oauth prints the authorization link (--open opens the browser too),',
    'waits for the browser on 127.0.0.1, and keeps the tokens in --oauth-tokens (default',
    '$XDG_CONFIG_HOME/toolcircuit/mcp-oauth.json, mode 0600), so the next import needs no new login.',
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
    'pass-env': {
      type: 'string',
      multiple: true,
      valueName: 'VAR',
      description: 'pass this environment variable on to a server started as a command (its value is never written)',
    },
    server: {
      type: 'string',
      valueName: 'name',
      description: 'import mcpServers.<name> of the config file (its command and passEnv, or its url)',
    },
    config: {
      type: 'string',
      valueName: 'file',
      description: 'config file for --server (default ./toolcircuit.config.json)',
    },
    oauth: { type: 'boolean', description: 'authorize with OAuth in the browser (HTTP servers)' },
    open: { type: 'boolean', description: 'with --oauth: open the browser on the link as well as printing it' },
    'oauth-tokens': {
      type: 'string',
      valueName: 'file',
      description: 'with --oauth: where tokens are kept (default $XDG_CONFIG_HOME/toolcircuit/mcp-oauth.json)',
    },
  },
  examples: [
    'toolcircuit mcp import --name fs -- npx -y @modelcontextprotocol/server-filesystem ./data',
    'toolcircuit mcp import http://127.0.0.1:3000/mcp --name docs --header Authorization=DOCS_AUTH',
    'GITHUB_TOKEN=… toolcircuit mcp import --name github --pass-env GITHUB_TOKEN -- npx -y some-github-mcp-server',
    'toolcircuit mcp import --server fs   # mcpServers.fs of ./toolcircuit.config.json',
    'toolcircuit mcp import https://mcp.example/mcp --name notes --oauth --open',
  ],
  exitCodes: [
    [ExitCode.ok, 'file written, no lint error'],
    [ExitCode.failed, 'file written; lint found errors'],
    [ExitCode.usage, 'bad flag, no server given, server could not be started or reached'],
  ],
  async run(args, io) {
    const configured = args.string('server');
    const name = args.string('name') ?? configured ?? 'server';
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
    const env = passEnvOf(args.list('pass-env'), io);
    const server =
      configured === undefined
        ? mcpServerOfArgument(args.positionals, transport, headers, env)
        : await configuredServer(configured, args.string('config'), args.positionals, { headers, env }, io);
    if (args.flag('oauth') && !('url' in server)) {
      throw new UsageError('--oauth applies to a server reached by URL.');
    }
    const authorization = args.flag('oauth')
      ? await oauthForCli(io, { tokensFile: args.string('oauth-tokens'), open: args.flag('open') })
      : undefined;
    const notes: string[] = [];
    // Loaded on use: the MCP SDK is heavy, and every other command starts without it.
    const { connectMcpServer } = await import('@toolcircuit/mcp');
    const connection = await connectMcpServer({
      name,
      server: authorization === undefined ? server : { ...server, oauth: authorization.oauth },
      onEvent: (event: McpEvent) => {
        if (event.type === 'tool-skipped') notes.push(`skipped ${event.mcpName}: ${event.reason}`);
      },
    }).catch(async (error: unknown) => {
      await authorization?.authorizer.close();
      throw new UsageError(
        `could not connect to the MCP server: ${error instanceof Error ? error.message : String(error)}`,
        'Check the command or URL (a command with flags goes after `--`).',
        { cause: error },
      );
    });
    // Listed: the login is not needed again for this import.
    await authorization?.authorizer.close();
    try {
      const out = resolve(io.cwd, args.string('out') ?? `mcp-${name}.tools.json`);
      // Where the server is, and which variables it was given by name: never their values.
      const where =
        'url' in server
          ? { url: String(server.url) }
          : {
              command: server.command,
              args: server.args ?? [],
              ...(server.env === undefined || Object.keys(server.env).length === 0
                ? {}
                : { passEnv: Object.keys(server.env) }),
            };
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

/** `--server <name>`: the entry of the config file, with `--header` and `--pass-env` added to it. */
async function configuredServer(
  name: string,
  configFlag: string | undefined,
  positionals: readonly string[],
  extra: { readonly headers: Readonly<Record<string, string>>; readonly env: Readonly<Record<string, string>> },
  io: CliIo,
): Promise<McpServerSpec> {
  if (positionals.length > 0) {
    throw new UsageError(`--server ${name} names the server already; unexpected: ${positionals.join(' ')}`);
  }
  const { config, directory } = await loadCliConfig(io.cwd, configFlag);
  const entry = config?.mcpServers?.[name];
  if (entry === undefined) {
    const known = Object.keys(config?.mcpServers ?? {});
    throw new UsageError(
      `the config file has no mcpServers.${name}.`,
      known.length === 0
        ? 'Add the server under "mcpServers" in toolcircuit.config.json.'
        : `Known: ${known.join(', ')}.`,
    );
  }
  const spec = mcpServerSpecOf(name, entry, directory, io);
  if ('url' in spec) {
    if (Object.keys(extra.env).length > 0) {
      throw new UsageError('--pass-env applies to a server started as a command; an HTTP server takes --header.');
    }
    return { ...spec, headers: { ...spec.headers, ...extra.headers } };
  }
  return { ...spec, env: { ...spec.env, ...extra.env } };
}
