import type { Command } from './command.js';
import { EXIT_CODE_HELP } from './exit-codes.js';

/** `toolcircuit <command> --help`. */
export function commandHelp(command: Command): string {
  const lines = [`Usage: ${command.usage}`, '', command.summary, ''];
  if (command.description !== '') lines.push(command.description, '');
  const flags = Object.entries(command.options).map(([name, option]) => {
    const short = option.short === undefined ? '    ' : `-${option.short}, `;
    const value = option.type === 'string' ? ` <${option.valueName ?? 'value'}>` : '';
    const repeat = option.multiple === true ? ' (repeatable)' : '';
    return [`  ${short}--${name}${value}`, `${option.description}${repeat}`] as const;
  });
  flags.push(['  -h, --help', 'show this help']);
  lines.push('Options:', ...table(flags), '');
  if (command.examples !== undefined && command.examples.length > 0) {
    lines.push('Examples:', ...command.examples.map((example) => `  ${example}`), '');
  }
  lines.push('Exit codes:', ...table(command.exitCodes.map(([code, meaning]) => [`  ${code}`, meaning] as const)));
  return `${lines.join('\n')}\n`;
}

/** `toolcircuit journal --help`: the subcommands of one group word. */
export function groupHelp(group: string, commands: readonly Pick<Command, 'name' | 'summary'>[]): string {
  const lines = [
    `Usage: toolcircuit ${group} <subcommand> [options]`,
    '',
    'Subcommands:',
    ...table(commands.map((command) => [`  ${command.name}`, command.summary] as const)),
    '',
    `Run \`toolcircuit ${group} <subcommand> --help\` for its flags.`,
  ];
  return `${lines.join('\n')}\n`;
}

/** `toolcircuit --help`. */
export function mainHelp(commands: readonly Pick<Command, 'name' | 'summary'>[], version: string): string {
  const lines = [
    `toolcircuit ${version}: one tool catalogue, one loop, every provider.`,
    '',
    'Usage: toolcircuit <command> [options]',
    '',
    'Commands:',
    ...table(commands.map((command) => [`  ${command.name}`, command.summary] as const)),
    '',
    "Run `toolcircuit <command> --help` for a command's flags. Start with `toolcircuit demo`.",
    '',
    'The model is chosen by --model provider:model, else TOOLCIRCUIT_MODEL, else "model" in',
    "toolcircuit.config.json; TOOLCIRCUIT_BASE_URL overrides the endpoint. Keys come from the provider's",
    'usual env var (ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY or GOOGLE_API_KEY) and are never printed.',
    '',
    'Exit codes (all commands):',
    ...table(EXIT_CODE_HELP.map(([code, meaning]) => [`  ${code}`, meaning] as const)),
  ];
  return `${lines.join('\n')}\n`;
}

function table(rows: readonly (readonly [string, string])[]): string[] {
  const width = Math.max(0, ...rows.map(([left]) => left.length)) + 2;
  return rows.map(([left, right]) => `${left.padEnd(width)}${right}`);
}
