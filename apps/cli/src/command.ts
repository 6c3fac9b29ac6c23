import type { CliIo } from './cli-io.js';
import type { ParsedArgs } from './parsed-args.js';

/** One flag of a command, as `util.parseArgs` takes it plus what `--help` shows. */
export interface CommandOption {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  /** Repeatable: `--right a --right b`. */
  readonly multiple?: boolean;
  /** Shown in help: `--provider <name>`. */
  readonly valueName?: string;
  readonly description: string;
}

/**
 * A `toolcircuit` subcommand. Adding one is one file exporting a `Command` and one line in
 * `commands/registry.ts`; the dispatcher, `--help`, flag parsing and error-to-exit-code mapping are shared.
 */
export interface Command {
  /** One or more words: `lint`, or `journal verify` for a command with a verb. */
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** `toolcircuit lint <file...> [options]`. */
  readonly usage: string;
  /** Paragraphs shown by `--help` after the usage line. */
  readonly description: string;
  readonly options: Readonly<Record<string, CommandOption>>;
  readonly examples?: readonly string[];
  /** Exit codes this command uses, with what each means here; shown by `--help`. */
  readonly exitCodes: readonly (readonly [number, string])[];
  run(args: ParsedArgs, io: CliIo): Promise<number>;
}

/**
 * What the dispatcher and `--help` need to know of a command before running it: its name and summary.
 * `load` imports the command's module; only the command that runs is ever loaded.
 */
export interface CommandEntry {
  readonly name: string;
  readonly summary: string;
  load(): Promise<Command>;
}

/** A registry holds entries; tests may hand the dispatcher ready commands too. */
export type CommandSource = Command | CommandEntry;

export function loadCommand(source: CommandSource): Promise<Command> {
  return 'load' in source ? source.load() : Promise.resolve(source);
}
