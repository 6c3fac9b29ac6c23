import type { CliIo } from './cli-io.js';
import type { Command } from './command.js';
import { COMMANDS } from './commands/registry.js';
import { UsageError } from './errors/usage-error.js';
import { ExitCode } from './exit-codes.js';
import { commandHelp, mainHelp } from './help.js';
import { parseCommandArgs } from './parse-command-args.js';
import { redactingStream, secretsOf } from './redacting-stream.js';
import { reportError } from './report-error.js';
import { cliVersion } from './version.js';

/** Runs one `toolcircuit` invocation and returns its exit code. Never throws. */
export async function runCli(
  argv: readonly string[],
  rawIo: CliIo,
  commands: readonly Command[] = COMMANDS,
): Promise<number> {
  const secrets = secretsOf(rawIo.env);
  const io: CliIo = {
    ...rawIo,
    stdout: redactingStream(rawIo.stdout, secrets),
    stderr: redactingStream(rawIo.stderr, secrets),
  };
  const [first] = argv;
  if (first === undefined) {
    io.stderr.write(mainHelp(commands, cliVersion()));
    return ExitCode.usage;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    const topic = first === 'help' ? findCommand(commands, argv.slice(1)) : undefined;
    io.stdout.write(topic === undefined ? mainHelp(commands, cliVersion()) : commandHelp(topic.command));
    return ExitCode.ok;
  }
  if (first === '--version' || first === '-v') {
    io.stdout.write(`${cliVersion()}\n`);
    return ExitCode.ok;
  }
  const found = findCommand(commands, argv);
  if (found === undefined) {
    return reportError(new UsageError(`unknown command "${first}".`, suggestion(commands, first)), io, undefined);
  }
  const { command, rest } = found;
  try {
    const args = parseCommandArgs(command, rest);
    if (args.flag('help')) {
      io.stdout.write(commandHelp(command));
      return ExitCode.ok;
    }
    return await command.run(args, io);
  } catch (error) {
    return reportError(error, io, command.name);
  }
}

/** The command whose name is the longest prefix of argv (`journal verify` before `journal`). */
function findCommand(
  commands: readonly Command[],
  argv: readonly string[],
): { command: Command; rest: readonly string[] } | undefined {
  let best: { command: Command; rest: readonly string[] } | undefined;
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

function suggestion(commands: readonly Command[], typed: string): string {
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
