// Records the `tools/list` answer of MCP servers published on npm, for the test corpus. Each server is
// started offline over stdio from a folder where it was installed with npm (nothing is downloaded here),
// asked for its tools with @modelcontextprotocol/sdk's Client (resolved from that same folder, so this
// package does not depend on it), and written as one JSON file with its provenance:
//
//   node scripts/record-mcp-tools.mjs --from /tmp/mcp-servers --out test/fixtures/corpus-extra \
//     firecrawl-mcp mongodb-mcp-server ...
//
// A server that needs credentials to start gets obviously fake ones through `--env NAME=value`; the
// network is never needed to list tools. The date recorded is the day the script ran.
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    from: { type: 'string' },
    out: { type: 'string' },
    env: { type: 'string', multiple: true, default: [] },
    arg: { type: 'string', multiple: true, default: [] },
  },
});
if (values.from === undefined || values.out === undefined || positionals.length === 0) {
  console.error(
    'usage: record-mcp-tools.mjs --from <npm folder> --out <folder> [--env N=V]... [--arg pkg=--flag]... <package>...',
  );
  process.exit(2);
}
const from = resolve(values.from);
const require = createRequire(join(from, 'package.json'));
const { Client } = await import(require.resolve('@modelcontextprotocol/sdk/client/index.js'));
const { StdioClientTransport } = await import(require.resolve('@modelcontextprotocol/sdk/client/stdio.js'));
const sdkVersion = JSON.parse(
  await readFile(join(from, 'node_modules/@modelcontextprotocol/sdk/package.json'), 'utf8'),
).version;
const extraEnv = Object.fromEntries(values.env.map((pair) => pair.split(/=(.*)/s).slice(0, 2)));
const extraArgs = new Map();
for (const pair of values.arg) {
  const [name, flag] = pair.split(/=(.*)/s);
  extraArgs.set(name, [...(extraArgs.get(name) ?? []), flag]);
}

for (const name of positionals) {
  const folder = join(from, 'node_modules', name);
  const manifest = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8'));
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin ?? {})[0];
  if (bin === undefined) throw new Error(`${name} declares no bin`);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(folder, bin), ...(extraArgs.get(name) ?? [])],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...extraEnv },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'toolcircuit-corpus-recorder', version: '1.0.0' });
  await client.connect(transport);
  const tools = [];
  let cursor;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  await client.close();
  const record = {
    provenance: {
      package: manifest.name,
      version: manifest.version,
      license: manifest.license ?? null,
      repository: typeof manifest.repository === 'string' ? manifest.repository : (manifest.repository?.url ?? null),
      recordedAt: new Date().toISOString().slice(0, 10),
      how: `npm install ${manifest.name}@${manifest.version}; started over stdio and asked tools/list with @modelcontextprotocol/sdk ${sdkVersion} (scripts/record-mcp-tools.mjs)`,
    },
    tools,
  };
  const file = join(resolve(values.out), `mcp_npm_${manifest.name.replace(/^@/, '').replaceAll('/', '_')}.json`);
  await writeFile(file, `${JSON.stringify(record, null, 1)}\n`);
  console.log(`${file}: ${tools.length} tools (${manifest.name}@${manifest.version}, ${manifest.license})`);
}
