import { resolve } from 'node:path';
import { loadToolList } from '../catalogue/load-tool-list.js';
import type { Command } from '../command.js';
import { convertCatalogue } from '../convert/convert-catalogue.js';
import { UsageError } from '../errors/usage-error.js';
import { ExitCode } from '../exit-codes.js';
import { CLI_PROVIDERS } from '../lint/lint-providers.js';

export const convertCommand: Command = {
  name: 'convert',
  summary: 'Print a catalogue as one provider will receive it, and what was changed on the way.',
  usage: 'toolcircuit convert <file> --provider anthropic|openai|openai-strict|openai-responses|gemini [--json]',
  description: [
    'The tools are sent through the provider adapter and its official SDK to a local server that captures the',
    "request, so the output is the request body's `tools` exactly as the provider would get it.",
    '',
    'Default output: the tools as JSON on stdout; renames, schema changes and tools the provider cannot',
    'receive at all on stderr. With --json: one object { provider, tools, changes, refused } on stdout.',
    'Paths in changes point into the ORIGINAL schema of each tool. A tool core refuses (createCatalogue: a',
    'duplicate name, a blank description, a schema that does not compile) is refused here too, as `lint` does.',
  ].join('\n'),
  options: {
    provider: { type: 'string', short: 'p', valueName: 'name', description: `one of ${CLI_PROVIDERS.join(', ')}` },
    json: { type: 'boolean', description: 'one JSON object with the tools, the changes and the refusals' },
  },
  examples: [
    'toolcircuit convert tools.json --provider gemini',
    'toolcircuit convert dist/catalogue.js -p openai-strict --json | jq .changes',
  ],
  exitCodes: [
    [ExitCode.ok, 'converted (even with changes)'],
    [
      ExitCode.failed,
      'some tools are refused by core or cannot be sent to this provider at all (listed on stderr, left out of the output)',
    ],
    [ExitCode.usage, 'missing or unknown --provider, missing file, invalid JSON, not a catalogue'],
  ],
  async run(args, io) {
    const [file, ...extra] = args.positionals;
    if (file === undefined)
      throw new UsageError('no catalogue file given.', 'Usage: toolcircuit convert <file> --provider <name>');
    if (extra.length > 0) throw new UsageError(`convert takes one file, got ${args.positionals.length}.`);
    if (args.string('provider') === undefined) {
      throw new UsageError('no --provider given.', `Choose one of: ${CLI_PROVIDERS.join(', ')}.`);
    }
    const provider = args.choice('provider', CLI_PROVIDERS);
    if (provider === undefined) throw new UsageError('no --provider given.');
    const tools = await loadToolList(resolve(io.cwd, file));
    const converted = await convertCatalogue(tools, provider);
    if (args.flag('json')) {
      io.stdout.write(`${JSON.stringify(converted, null, 2)}\n`);
    } else {
      io.stdout.write(`${JSON.stringify(converted.tools, null, 2)}\n`);
      const lines = [
        `${file} → ${provider}: ${tools.length} tool(s), ${converted.changes.length} change(s), ${converted.refused.length} refused`,
      ];
      for (const change of converted.changes) {
        lines.push(`  ${change.tool} ${change.path === '' ? '(root)' : change.path}  ${change.kind}: ${change.detail}`);
      }
      for (const refusal of converted.refused) lines.push(`  REFUSED ${refusal.tool}: ${refusal.message}`);
      io.stderr.write(`${lines.join('\n')}\n`);
    }
    return converted.refused.length > 0 ? ExitCode.failed : ExitCode.ok;
  },
};
