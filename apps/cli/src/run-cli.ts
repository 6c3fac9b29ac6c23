import type { CliIo } from './cli-io.js';
import { type CommandSource, loadCommand } from './command.js';
import { COMMANDS } from './commands/registry.js';
import { UsageError } from './errors/usage-error.js';
import { ExitCode } from './exit-codes.js';
import { commandHelp, groupHelp, mainHelp } from './help.js';
import { parseCommandArgs } from './parse-command-args.js';
import { reportError } from './report-error.js';
import { cliVersion } from './version.js';

/**
 * Runs one `toolcircuit` invocation and returns its exit code. Never throws. `--help`, `--version` and an
 * unknown command load no command module; the one command that runs is imported then (see registry.ts).
 */
export async function runCli(
  argv: readonly string[],
  rawIo: CliIo,
  commands: readonly CommandSource[] = COMMANDS,
): Promise<number> {
  const [first] = argv;
  if (first === undefined) {
    rawIo.stderr.write(mainHelp(commands, cliVersion()));
    return ExitCode.usage;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    const topic = first === 'help' ? findCommand(commands, argv.slice(1)) : undefined;
    rawIo.stdout.write(
      topic === undefined ? mainHelp(commands, cliVersion()) : commandHelp(await loadCommand(topic.command)),
    );
    return ExitCode.ok;
  }
  if (first === '--version' || first === '-v') {
    rawIo.stdout.write(`${cliVersion()}\n`);
    return ExitCode.ok;
  }
  const found = findCommand(commands, argv);
  if (found === undefined) {
    // A group word of commands with a verb (`journal`, `trace`, `mcp`): list its subcommands.
    const group = commands.filter((command) => command.name.startsWith(`${first} `));
    if (group.length > 0) {
      const asked = argv.slice(1).some((word) => word === '--help' || word === '-h');
      const verb = argv[1];
      const unknownVerb = !asked && verb !== undefined ? ` has no subcommand "${verb}"` : ' needs a subcommand';
      (asked ? rawIo.stdout : rawIo.stderr).write(
        `${asked ? '' : `toolcircuit ${first}${unknownVerb}.\n\n`}${groupHelp(first, group)}`,
      );
      return asked ? ExitCode.ok : ExitCode.usage;
    }
    return reportError(new UsageError(`unknown command "${first}".`, suggestion(commands, first)), rawIo, undefined);
  }
  // From here on output may carry what a command read from the environment: keys are masked on the way out.
  const { redactingStream, secretsOf } = await import('./redacting-stream.js');
  const secrets = secretsOf(rawIo.env);
  const io: CliIo = {
    ...rawIo,
    stdout: redactingStream(rawIo.stdout, secrets),
    stderr: redactingStream(rawIo.stderr, secrets),
  };
  const { rest } = found;
  let name = found.command.name;
  try {
    const command = await loadCommand(found.command);
    name = command.name;
    const args = parseCommandArgs(command, rest);
    if (args.flag('help')) {
      io.stdout.write(commandHelp(command));
      return ExitCode.ok;
    }
    return await command.run(args, io);
  } catch (error) {
    return reportError(error, io, name);
  }
}

/** The command whose name is the longest prefix of argv (`journal verify` before `journal`). */
function findCommand(
  commands: readonly CommandSource[],
  argv: readonly string[],
): { command: CommandSource; rest: readonly string[] } | undefined {
  let best: { command: CommandSource; rest: readonly string[] } | undefined;
  let bestLength = 0;
  for (const command of commands) {
    const words = command.name.split(' ');
    if (words.length > bestLength && words.every((word, index) => argv[index] === word)) {
      best = { command, rest: argv.slice(words.length) };
      bestLength = words.length;
    }
  }
  return best;
}

function suggestion(commands: readonly CommandSource[], typed: string): string {
  const names = commands.map((command) => command.name);
  const close = names.filter((name) => editDistance(name.split(' ')[0] ?? name, typed) <= 2);
  const list = close.length > 0 ? `Did you mean ${close.join(' or ')}? ` : '';
  return `${list}Commands: ${names.join(', ')}. Run \`toolcircuit --help\`.`;
}

/** Levenshtein distance, for "did you mean": a typo is one or two edits away. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? Math.max(a.length, b.length);
}
