import type { Command, CommandEntry } from '../command.js';

/**
 * Every `toolcircuit` command, in the order `--help` lists them. Each module is imported only when its
 * command runs: `--help` and `--version` load none of them (nor the SDKs, stores and ajv they pull in), so
 * the CLI starts about as fast as Node itself. A new command is one file in this folder exporting a
 * {@link Command}, plus one entry here; a test checks each summary against the command's own.
 */
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'demo',
    summary: 'Run the example catalogue through every provider adapter and SDK, offline, and compare the traces.',
    load: async () => (await import('./demo-command.js')).demoCommand,
  },
  {
    name: 'run',
    summary: 'Run a catalogue module and a prompt on the configured model, showing every call and its checks.',
    load: async () => (await import('./run-command.js')).runCommand,
  },
  {
    name: 'serve',
    summary: 'Serve durable runs of a catalogue over HTTP with the approval inbox page (on 127.0.0.1).',
    load: async () => (await import('./serve-command.js')).serveCommand,
  },
  {
    name: 'lint',
    summary: 'Check catalogues for tools a model will confuse and schemas a provider will reject or rewrite.',
    load: async () => (await import('./lint-command.js')).lintCommand,
  },
  {
    name: 'convert',
    summary: 'Print a catalogue as one provider will receive it, and what was changed on the way.',
    load: async () => (await import('./convert-command.js')).convertCommand,
  },
  {
    name: 'record',
    summary: 'Record real provider traffic into a cassette through a local, key-scrubbing proxy.',
    load: async () => (await import('./record-command.js')).recordCommand,
  },
  {
    name: 'replay',
    summary: 'Serve a cassette on 127.0.0.1 so an official SDK (or `toolcircuit run`) replays it offline.',
    load: async () => (await import('./replay-command.js')).replayCommand,
  },
  {
    name: 'journal verify',
    summary: 'Check that a store journal was not edited, shortened or reordered since it was written.',
    load: async () => (await import('./journal-verify-command.js')).journalVerifyCommand,
  },
  {
    name: 'journal anchor',
    summary: "Take a journal's head out of the database, so that a later cut, rewind or wipe is detected.",
    load: async () => (await import('./journal-anchor-command.js')).journalAnchorCommand,
  },
  {
    name: 'trace open',
    summary: 'Show a trace file or journal export in the trace viewer (served on 127.0.0.1).',
    load: async () => (await import('./trace-open-command.js')).traceOpenCommand,
  },
  {
    name: 'trace serve',
    summary: 'Serve the trace viewer for every trace file in a folder (on 127.0.0.1).',
    load: async () => (await import('./trace-serve-command.js')).traceServeCommand,
  },
  {
    name: 'mcp import',
    summary: "Write an MCP server's tools, with pinned fingerprints, as a catalogue file, and lint it.",
    load: async () => (await import('./mcp-import-command.js')).mcpImportCommand,
  },
  {
    name: 'mcp serve',
    summary: 'Serve a catalogue module as an MCP server (stdio, or Streamable HTTP on 127.0.0.1).',
    load: async () => (await import('./mcp-serve-command.js')).mcpServeCommand,
  },
];

/** Every command, loaded (for tests and tools that need them all). */
export function loadCommands(): Promise<Command[]> {
  return Promise.all(COMMANDS.map((entry) => entry.load()));
}
