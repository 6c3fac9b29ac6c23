import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createModel, formatModelSpec, resolveModelConfig, type ToolcircuitConfig } from '@toolcircuit/config';
import { createCatalogue, type Model } from '@toolcircuit/core';
import type { McpConnection } from '@toolcircuit/mcp';
import { type CatalogueModule, loadCatalogueModule } from '../catalogue/load-catalogue-module.js';
import { operatorSession } from '../catalogue/operator-session.js';
import type { CliIo } from '../cli-io.js';
import type { Command } from '../command.js';
import { UsageError } from '../errors/usage-error.js';
import { ExitCode } from '../exit-codes.js';
import type { ParsedArgs } from '../parsed-args.js';
import { type ConfirmAnswer, driveRun } from '../run/drive-run.js';
import { loadCliConfig } from '../run/load-cli-config.js';
import { Progress } from '../run/progress.js';
import { readStdin } from '../run/read-stdin.js';
import { streamingModel } from '../run/streaming-model.js';
import { confirmOnTerminal } from '../run/terminal-confirm.js';
import { TerminalPrompter } from '../run/terminal-prompter.js';
import { HumanTraceWriter, JsonTraceWriter, type TraceWriter } from '../trace/trace-writer.js';

export const runCommand: Command = {
  name: 'run',
  summary: 'Run a catalogue module and a prompt on the configured model, showing every call and its checks.',
  usage: 'toolcircuit run <catalogue-module> "<prompt>" [--model provider:model] [--right <name>]... [--json]',
  description: [
    'The catalogue module exports `catalogue` (or a default) built with createCatalogue, and may export',
    '`session` and `system`. --right / --human build the session instead (rights are exact names).',
    'The prompt is the text after the module, or --prompt, or stdin when it is piped.',
    '',
    'Model: --model, else TOOLCIRCUIT_MODEL, else "model" in toolcircuit.config.json (which may also set',
    'system, maxTurns, concurrency, toolTimeoutMs and catalogue). TOOLCIRCUIT_BASE_URL overrides the endpoint.',
    '',
    'Each call is shown with its four checks (exists, schema, right, confirmation) and verdict. Text streams',
    'when the adapter can. Before an irreversible call runs you are asked on the terminal; when stdin is',
    'not a terminal nobody can be asked, so the run stops there (exit 3) and says so, or, with',
    '--refuse-unconfirmed, the call is refused, the model is told, and the run goes on.',
  ].join('\n'),
  options: {
    model: {
      type: 'string',
      short: 'm',
      valueName: 'provider:model',
      description: 'e.g. anthropic:claude-haiku-5-5, openai:gpt-5-mini',
    },
    prompt: {
      type: 'string',
      short: 'p',
      valueName: 'text',
      description: 'the user message (instead of the positional text)',
    },
    right: {
      type: 'string',
      short: 'r',
      multiple: true,
      valueName: 'name',
      description: 'a right the session holds, e.g. dossiers:read',
    },
    human: { type: 'string', valueName: 'id', description: 'who the session acts for (default: $USER)' },
    system: { type: 'string', valueName: 'text', description: 'system prompt (default: the module or config one)' },
    'max-turns': { type: 'string', valueName: 'n', description: 'model turns before stopping (default 10)' },
    config: { type: 'string', valueName: 'file', description: 'config file (default ./toolcircuit.config.json)' },
    json: { type: 'boolean', description: 'JSON lines: text-delta, text, call, confirmation, end, summary' },
    'no-stream': { type: 'boolean', description: 'ask for whole turns even when the adapter streams' },
    'refuse-unconfirmed': {
      type: 'boolean',
      description: 'when nobody can be asked, refuse irreversible calls and go on, instead of stopping',
    },
  },
  examples: [
    'toolcircuit run dist/catalogue.js "Close case A-1234" --model anthropic:claude-haiku-5-5 --right dossiers:close',
    'echo "Find case A-1234" | toolcircuit run dist/catalogue.js --json',
  ],
  exitCodes: [
    [ExitCode.ok, 'the model finished answering'],
    [ExitCode.failed, 'the run hit --max-turns or was interrupted'],
    [ExitCode.usage, 'bad flag, no prompt, missing module, invalid config, unknown provider, missing key'],
    [ExitCode.paused, 'an irreversible call needs confirmation and stdin is not a terminal'],
    [ExitCode.provider, 'the provider answered with an error or could not be reached'],
  ],
  run: runCatalogue,
};

async function runCatalogue(args: ParsedArgs, io: CliIo): Promise<number> {
  const { config, directory } = await loadCliConfig(io.cwd, args.string('config'));
  // With MCP servers in the config, the module is optional: positionals that do not name a module are the prompt.
  const mcpOnly = config?.mcpServers !== undefined && !/\.[cm]?[jt]s$/.test(args.positionals[0] ?? '');
  const moduleArg = mcpOnly ? undefined : args.positionals[0];
  const promptWords = mcpOnly ? args.positionals : args.positionals.slice(1);
  const moduleFile =
    moduleArg === undefined
      ? config?.catalogue === undefined
        ? undefined
        : resolve(directory, config.catalogue)
      : resolve(io.cwd, moduleArg);
  if (moduleFile === undefined && config?.mcpServers === undefined) {
    throw new UsageError(
      'no catalogue module given.',
      'Usage: toolcircuit run <catalogue-module> "<prompt>" (or set "catalogue" or "mcpServers" in toolcircuit.config.json)',
    );
  }
  // Named before the model is built: a typo in the path is the first thing to fix, not the key.
  if (moduleFile !== undefined && !existsSync(moduleFile)) {
    throw new UsageError(
      `no such file: ${moduleArg ?? config?.catalogue} (looked for ${moduleFile}).`,
      'Usage: toolcircuit run <catalogue-module> "<prompt>"',
    );
  }
  const prompt = await promptOf(args, promptWords, io);
  const maxTurns = args.integer('max-turns', { min: 1, max: 1000 }) ?? config?.maxTurns;

  const modelConfig = resolveModelConfig({ model: args.string('model'), config, env: io.env });
  const spec = formatModelSpec(modelConfig);
  // Already resolved (--model wins over TOOLCIRCUIT_MODEL here): no second round of env overrides.
  const model = await createModel(modelConfig, { env: io.env, envOverrides: false });
  const loaded = moduleFile === undefined ? undefined : await loadCatalogueModule(moduleFile);
  // MCP servers (and the SDK) are loaded only when the config lists some: a plain run starts without them.
  const servers = config?.mcpServers === undefined ? undefined : await import('../mcp/connect-config-servers.js');
  const mcp = (await servers?.connectConfigServers(config?.mcpServers, directory, io)) ?? [];
  try {
    return await runLoaded(args, io, { config, spec, model, prompt, maxTurns, loaded, mcp });
  } finally {
    await servers?.closeAll(mcp);
  }
}

interface LoadedRun {
  readonly config: ToolcircuitConfig | undefined;
  readonly spec: string;
  readonly model: Model;
  readonly prompt: string;
  readonly maxTurns: number | undefined;
  readonly loaded: CatalogueModule | undefined;
  readonly mcp: readonly McpConnection[];
}

async function runLoaded(args: ParsedArgs, io: CliIo, run: LoadedRun): Promise<number> {
  const { config, spec, model, prompt, maxTurns, loaded } = run;
  const json = args.flag('json');
  // The module's tools first, then each MCP server's (config order).
  const catalogue =
    run.mcp.length === 0 && loaded !== undefined
      ? loaded.catalogue
      : createCatalogue([
          ...(loaded?.catalogue.names.flatMap((name) => loaded.catalogue.get(name)?.definition ?? []) ?? []),
          ...run.mcp.flatMap((connection) => connection.tools()),
        ]);
  const session = operatorSession(args, loaded?.session, io);
  const system = args.string('system') ?? loaded?.system ?? config?.system;

  const writer: TraceWriter = json ? new JsonTraceWriter(io.stdout) : new HumanTraceWriter(io.stdout);
  const progress = new Progress(io.stderr, !json && io.stderr.isTTY === true);
  const interactive = io.stdin.isTTY === true;
  const prompter = interactive ? new TerminalPrompter(io.stdin, io.stderr) : undefined;
  const rights = [...session.rights].join(', ') || 'none';
  if (json) {
    io.stdout.write(
      `${JSON.stringify({ type: 'start', model: spec, tools: catalogue.names, human: session.humanId, rights: [...session.rights] })}\n`,
    );
  } else {
    io.stdout.write(
      `toolcircuit run: ${catalogue.names.length} tool(s) on ${spec}; acting for ${session.humanId}, rights: ${rights}\n`,
    );
  }

  let turn = 1;
  const live = streamingModel(
    model,
    {
      onRequest: () => progress.start(`waiting for ${spec}`),
      onTextDelta: (text) => {
        progress.stop();
        writer.textDelta(turn, text);
      },
      onSettled: () => {
        progress.stop();
        turn += 1;
      },
    },
    !args.flag('no-stream'),
  );
  let unasked: string[] = [];
  try {
    const { summary, result } = await driveRun({
      model: live,
      catalogue,
      session,
      messages: [{ role: 'user', content: prompt }],
      confirmation: interactive || !args.flag('refuse-unconfirmed') ? 'pause' : 'refuse',
      confirm: async (pending): Promise<ConfirmAnswer> => {
        if (prompter === undefined) {
          unasked = [...unasked, `${pending.toolName} ${JSON.stringify(pending.input)}`];
          return undefined;
        }
        progress.stop();
        return confirmOnTerminal(prompter, io.stderr, pending, session.humanId);
      },
      emit: (event) => {
        progress.stop();
        writer.event(event);
      },
      onTurn: (_turn, calls) => {
        if (calls > 0) progress.start(`running ${calls} tool call(s)`);
      },
      signal: io.signal,
      ...(system === undefined ? {} : { system }),
      ...(maxTurns === undefined ? {} : { maxTurns }),
      ...(config?.concurrency === undefined ? {} : { concurrency: config.concurrency }),
      ...(config?.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: config.toolTimeoutMs }),
    });
    writer.summary(summary);
    if (result.status === 'paused') {
      writer.note(
        `paused: ${unasked.join('; ')} needs the confirmation of ${session.humanId}, and nobody was asked because stdin is not a terminal. ` +
          'Run it in a terminal to be asked, or pass --refuse-unconfirmed to let the model know and carry on.',
      );
      return ExitCode.paused;
    }
    if (result.status === 'max_turns')
      writer.note(`stopped after ${summary.turns} turn(s) (--max-turns); the model was not done.`);
    if (result.status === 'aborted') writer.note('interrupted.');
    return result.status === 'completed' ? ExitCode.ok : ExitCode.failed;
  } finally {
    progress.stop();
    prompter?.close();
  }
}

async function promptOf(args: ParsedArgs, words: readonly string[], io: CliIo): Promise<string> {
  const flag = args.string('prompt');
  if (flag !== undefined && words.length > 0) {
    throw new UsageError('the prompt is given twice (--prompt and as text after the module).', 'Keep one of them.');
  }
  const text = flag ?? (words.length > 0 ? words.join(' ') : io.stdin.isTTY === true ? '' : await readStdin(io.stdin));
  if (text.trim() === '') {
    throw new UsageError(
      'no prompt given.',
      'Write it after the module (quoted), pass --prompt "…", or pipe it on stdin.',
    );
  }
  return text.trim();
}
