import { parseArgs } from 'node:util';
import type { Command } from './command.js';
import { UsageError } from './errors/usage-error.js';
import { ParsedArgs } from './parsed-args.js';

/** Parses a command's arguments; unknown flags and missing values become usage errors naming the command. */
export function parseCommandArgs(command: Command, argv: readonly string[]): ParsedArgs {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {
    help: { type: 'boolean', short: 'h' },
  };
  for (const [name, option] of Object.entries(command.options)) {
    options[name] = {
      type: option.type,
      ...(option.short === undefined ? {} : { short: option.short }),
      ...(option.multiple === undefined ? {} : { multiple: option.multiple }),
    };
  }
  try {
    const { values, positionals } = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
    return new ParsedArgs(values, positionals);
  } catch (error) {
    const message = (error as Error).message.replace(/\. To specify a positional argument.*$/s, '.');
    throw new UsageError(message, `Run \`toolcircuit ${command.name} --help\` for its flags.`, { cause: error });
  }
}
