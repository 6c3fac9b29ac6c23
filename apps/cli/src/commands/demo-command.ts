import { resolve } from 'node:path';
import {
  createModel,
  DEFAULT_API_KEY_ENV,
  formatModelSpec,
  MODEL_ENV,
  type ModelConfig,
  resolveModelConfig,
} from '@toolcircuit/config';
import type { JsonValue, Model, RunCost } from '@toolcircuit/core';
import { type Cassette, loadCassette, startReplayServer } from '@toolcircuit/testing';
import type { CliIo } from '../cli-io.js';
import type { Command } from '../command.js';
import { cliInvocation } from '../demo/cli-invocation.js';
import { DEMO_BACKENDS, type DemoBackend, demoCassettesDirectory } from '../demo/demo-backends.js';
import { DEMO_PROMPT } from '../demo/demo-catalogue.js';
import { formatCost } from '../demo/format-cost.js';
import { type DemoScenarioOutcome, runDemoScenario } from '../demo/run-demo-scenario.js';
import { type WireExchange, type WireShape, wireShape } from '../demo/wire-shape.js';
import { UsageError } from '../errors/usage-error.js';
import { ExitCode } from '../exit-codes.js';
import type { ParsedArgs } from '../parsed-args.js';
import { loadCliConfig } from '../run/load-cli-config.js';
import { Progress } from '../run/progress.js';
import { streamingModel } from '../run/streaming-model.js';
import type { TraceEvent } from '../trace/trace-event.js';
import { TraceFile } from '../trace/trace-file.js';
import { HumanTraceWriter, JsonTraceWriter, type TraceWriter } from '../trace/trace-writer.js';

// Offline, the SDKs talk to 127.0.0.1 only; these stand in for keys so a real one is never sent there.
const OFFLINE_KEYS = {
  ANTHROPIC_API_KEY: 'toolcircuit-demo-offline',
  OPENAI_API_KEY: 'toolcircuit-demo-offline',
  GEMINI_API_KEY: 'toolcircuit-demo-offline',
};

/** Live demo without TOOLCIRCUIT_MODEL: the first provider whose key is set, with a small, cheap model. */
const LIVE_DEFAULTS: readonly { readonly spec: string; readonly provider: keyof typeof DEFAULT_API_KEY_ENV }[] = [
  { spec: 'anthropic:claude-haiku-5-5', provider: 'anthropic' },
  { spec: 'openai:gpt-5-mini', provider: 'openai' },
  { spec: 'google:gemini-2.5-flash', provider: 'google' },
];

export const demoCommand: Command = {
  name: 'demo',
  summary: 'Run the example catalogue through every provider adapter and SDK, offline, and compare the traces.',
  usage: 'toolcircuit demo [--show-wire] [--live] [--model provider:model] [--json] [--trace file]',
  description: [
    'One catalogue (chercher_dossier, supprimer_dossier, cloturer_dossier), one prompt, five backends:',
    ...DEMO_BACKENDS.map((backend) => `  ${backend.id.padEnd(22)}${backend.label}`),
    'Each runs against a local replay server serving a SYNTHETIC cassette (cassettes/demo/), through the',
    "official SDK's real HTTP code. Every backend must show the same neutral trace: one call refused by the",
    "schema, one refused for a missing right, one irreversible call paused, approved by the demo's human and",
    'run exactly once. The trace is printed once; each other backend is checked against it. Then a table shows',
    'where each provider puts the same turn on its wire (tool declaration, call, stop reason, result), found',
    'in the bodies just exchanged; --show-wire prints those bodies in full. The last line says whether all',
    'traces are identical. A backend whose optional SDK is not installed is skipped and says what to install.',
    '',
    `Live: with --live, or when ${MODEL_ENV} is set, the same scenario runs once on a real model`,
    '(--model, else TOOLCIRCUIT_MODEL, else toolcircuit.config.json, else the first provider whose key is',
    'set). Without a key it says which variable to set. --offline forces the offline demo.',
  ].join('\n'),
  options: {
    live: { type: 'boolean', description: 'run once on a real model instead of the offline backends' },
    offline: { type: 'boolean', description: `run offline even when ${MODEL_ENV} is set` },
    model: { type: 'string', short: 'm', valueName: 'provider:model', description: 'the live model (implies --live)' },
    config: {
      type: 'string',
      valueName: 'file',
      description: 'config file for the live model (default ./toolcircuit.config.json)',
    },
    json: { type: 'boolean', description: 'JSON lines (each with its backend), ending with a demo-result line' },
    'show-wire': {
      type: 'boolean',
      description: "offline: also print each backend's first request, its response and the reply, in full",
    },
    cassettes: {
      type: 'string',
      valueName: 'dir',
      description: 'offline: read the cassettes from this folder instead (same file names, e.g. your own recordings)',
    },
    trace: {
      type: 'string',
      valueName: 'file',
      description: 'also write the runs as a trace file (JSON lines) for `toolcircuit trace open <file>`',
    },
  },
  examples: [
    'toolcircuit demo',
    'toolcircuit demo --show-wire',
    'ANTHROPIC_API_KEY=… toolcircuit demo --live',
    'toolcircuit demo --live --model google:gemini-2.5-flash',
    'toolcircuit demo --trace run.jsonl && toolcircuit trace open run.jsonl',
  ],
  exitCodes: [
    [ExitCode.ok, 'offline: every backend gave the same trace and showed the whole scenario; live: the run completed'],
    [ExitCode.failed, 'offline: traces differ or a backend failed; live: the run did not complete'],
    [ExitCode.usage, 'live without a key (names the variable to set), bad --model, invalid config'],
    [ExitCode.provider, 'live: the provider answered with an error'],
  ],
  async run(args, io) {
    if (args.positionals.length > 0)
      throw new UsageError(`demo takes no arguments, got "${args.positionals.join(' ')}".`);
    const modelEnv = io.env[MODEL_ENV];
    const live =
      !args.flag('offline') &&
      (args.flag('live') || args.string('model') !== undefined || (modelEnv !== undefined && modelEnv !== ''));
    return live ? runLive(args, io) : runOffline(args, io);
  },
};

interface BackendOutcome {
  readonly backend: DemoBackend;
  readonly trace: readonly TraceEvent[];
  readonly problems: readonly string[];
  /** Set when the backend's SDK is an optional package that is not installed: not run, not a failure. */
  readonly skipped?: string;
  readonly exchange?: WireExchange;
  /** What the run cost (`LoopResult.cost`); absent when it did not run. */
  readonly cost?: RunCost;
}

async function runOffline(args: ParsedArgs, io: CliIo): Promise<number> {
  const json = args.flag('json');
  if (!json) {
    io.stdout.write(
      `toolcircuit demo: one catalogue, ${DEMO_BACKENDS.length} backends, offline (synthetic cassettes on a local replay server)\n` +
        `prompt: ${DEMO_PROMPT}\n\n`,
    );
  }
  const flag = args.string('cassettes');
  const directory = flag === undefined ? demoCassettesDirectory() : resolve(io.cwd, flag);
  const outcomes: BackendOutcome[] = [];
  const traceFile = traceFileOf(args, io);
  for (const backend of DEMO_BACKENDS) {
    const cassette = loadCassette(backend.cassette, { directory });
    // The whole trace is shown once, for the first backend; the others must produce the very same one.
    const shown = json || outcomes.length === 0;
    const writer: TraceWriter = json
      ? new JsonTraceWriter(io.stdout, { backend: backend.id })
      : new HumanTraceWriter(shown ? io.stdout : DISCARD, '  ');
    if (!json) {
      const where = flag === undefined ? `demo/${backend.cassette}.json` : `${backend.cassette}.json in ${flag}`;
      io.stdout.write(`▸ ${backend.id}: ${backend.label} (cassette ${where}, ${cassette.provenance.kind})`);
      io.stdout.write(shown ? '\n' : ' … ');
    }
    const outcome = await runBackend(backend, cassette, writer, io, traceFile);
    if (!json) io.stdout.write(shown ? '\n' : `${verdictOf(outcome, outcomes[0])}\n`);
    if (!json && !shown) for (const problem of outcome.problems) io.stdout.write(`    PROBLEM: ${problem}\n`);
    outcomes.push(outcome);
  }

  await saveTraceFile(traceFile, io);
  const ran = outcomes.filter((outcome) => outcome.skipped === undefined);
  const [reference] = ran;
  const differing = ran.filter((outcome) => JSON.stringify(outcome.trace) !== JSON.stringify(reference?.trace));
  const failed = ran.filter((outcome) => outcome.problems.length > 0);
  const identical = differing.length === 0 && (reference?.trace.length ?? 0) > 0;
  if (json) {
    io.stdout.write(
      `${JSON.stringify({
        type: 'demo-result',
        identical,
        backends: outcomes.map((outcome) => ({
          backend: outcome.backend.id,
          steps: outcome.trace.length,
          problems: outcome.problems,
          ...(outcome.cost === undefined ? {} : { cost: outcome.cost.total }),
          ...(outcome.skipped === undefined ? {} : { skipped: outcome.skipped }),
        })),
      })}\n`,
    );
    return identical && failed.length === 0 ? ExitCode.ok : ExitCode.failed;
  }
  const firstCall = reference?.trace.find((event) => event.type === 'call');
  if (firstCall?.type === 'call') {
    io.stdout.write(`\n${formatWireTable(ran, firstCall.tool, firstCall.input)}`);
  }
  if (args.flag('show-wire')) io.stdout.write(`\n${formatWireBodies(ran)}`);
  io.stdout.write(`\n${costLines(ran)}\n`);
  io.stdout.write(`\n${nextSteps()}\n\n`);
  if (identical) {
    io.stdout.write(`All ${ran.length} traces are identical.\n`);
  } else {
    const names = differing.map((outcome) => outcome.backend.id).join(', ');
    io.stdout.write(
      `Traces differ: ${names} ${differing.length === 1 ? 'differs' : 'differ'} from ${reference?.backend.id ?? 'the first backend'}.\n`,
    );
  }
  if (failed.length > 0 && identical) {
    io.stdout.write(`…but ${failed.map((outcome) => outcome.backend.id).join(', ')} reported problems (see above).\n`);
  }
  return identical && failed.length === 0 ? ExitCode.ok : ExitCode.failed;
}

/** What each backend's run cost, at the shipped price table: `unknown` (and why) for a model without a row. */
function costLines(ran: readonly BackendOutcome[]): string {
  const width = Math.max(...ran.map((outcome) => outcome.backend.id.length)) + 2;
  const rows = ran.map(
    (outcome) =>
      `  ${outcome.backend.id.padEnd(width)}${outcome.cost === undefined ? 'did not run' : formatCost(outcome.cost.total)}`,
  );
  return ['Cost per run (LoopResult.cost, at the shipped price table):', ...rows].join('\n');
}

/** Output of the backends whose trace is not shown: they are compared, not printed. */
const DISCARD = { write: () => true };

/** What to try next, typed the way this CLI is run (`pnpm exec toolcircuit` inside a clone). */
function nextSteps(cli = cliInvocation()): string {
  const rows: [string, string][] = [
    [`${cli} demo --show-wire`, 'the full request and response bodies above'],
    [`${cli} convert <catalogue.js> --provider gemini`, 'your own tools as one provider receives them'],
    [`${cli} run <catalogue.js> "<prompt>" --model anthropic:claude-haiku-5-5`, ''],
    ['', 'your catalogue on a real model (key from the env)'],
    [`${cli} demo --live`, 'this scenario on a real model'],
  ];
  const width = Math.max(...rows.filter(([, what]) => what !== '').map(([command]) => command.length)) + 2;
  return ['Next:', ...rows.map(([command, what]) => `  ${what === '' ? command : command.padEnd(width) + what}`)].join(
    '\n',
  );
}

async function runBackend(
  backend: DemoBackend,
  cassette: Cassette,
  writer: TraceWriter,
  io: CliIo,
  traceFile: TraceFile | undefined,
): Promise<BackendOutcome> {
  const server = await startReplayServer(cassette);
  const problems: string[] = [];
  let outcome: DemoScenarioOutcome | undefined;
  try {
    let model: Model;
    try {
      model = await createModel(backend.config(server.url, cassette.model ?? 'demo-model'), { env: OFFLINE_KEYS });
    } catch (error) {
      const missing = missingPackage(error);
      if (missing === undefined) throw error;
      writer.note(`skipped: ${missing}`);
      return { backend, trace: [], problems: [], skipped: missing };
    }
    outcome = await runDemoScenario(model, writer, io.signal, await traceFile?.loop(backend.id));
    problems.push(...outcome.missing.map((what) => `did not show ${what}`));
    writer.note(`cloturer_dossier ran ${outcome.closeRuns} time(s); journal: ${outcome.journal.length} entries`);
  } catch (error) {
    problems.push(`failed: ${(error as Error).message}`);
  } finally {
    await server.close();
  }
  for (const mismatch of server.mismatches) {
    const hint = mismatch.hint === undefined ? '' : ` (hint: ${mismatch.hint})`;
    problems.push(`request #${mismatch.index + 1} did not match the cassette: ${mismatch.reason}${hint}`);
  }
  if (outcome !== undefined && server.remaining > 0)
    problems.push(`${server.remaining} recorded response(s) were never requested`);
  for (const problem of problems) writer.note(`PROBLEM: ${problem}`);
  const answer = cassette.interactions[0]?.response.body;
  return {
    backend,
    trace: outcome?.trace ?? [],
    problems,
    ...(outcome === undefined ? {} : { cost: outcome.cost }),
    exchange: {
      request: server.received[0]?.body,
      response: answer?.kind === 'json' ? answer.json : undefined,
      reply: server.received[1]?.body,
    },
  };
}

/** An optional SDK that is not installed (the archived Gemini SDK, most often): its message, else undefined. */
function missingPackage(error: unknown): string | undefined {
  const code = (error as { code?: unknown }).code;
  return code === 'adapter_missing' || code === 'sdk_missing' ? (error as Error).message : undefined;
}

function verdictOf(outcome: BackendOutcome, reference: BackendOutcome | undefined): string {
  if (outcome.skipped !== undefined) return `skipped: ${outcome.skipped}`;
  if (outcome.problems.length > 0) return 'PROBLEMS';
  const same = JSON.stringify(outcome.trace) === JSON.stringify(reference?.trace);
  return same ? `same trace ✓ (${outcome.trace.length} steps)` : 'DIFFERENT trace';
}

const WIRE_ROWS: readonly { readonly key: keyof WireShape; readonly title: string }[] = [
  { key: 'tools', title: 'the tool, as declared in the request' },
  { key: 'call', title: 'the model asks for it' },
  { key: 'stop', title: 'why the turn stopped' },
  { key: 'result', title: 'the result, sent back in the next request' },
];

/** Side by side, per part of the turn: where each provider puts it and with which field names. */
function formatWireTable(outcomes: readonly BackendOutcome[], tool: string, input: JsonValue | null): string {
  const shapes = outcomes.map((outcome) => ({
    id: outcome.backend.id,
    shape: outcome.exchange === undefined ? {} : wireShape(outcome.exchange, tool, input),
  }));
  const width = Math.max(...shapes.map(({ id }) => id.length)) + 2;
  const lines = [`The same turn on each wire — ${tool} ${JSON.stringify(input)} — found in the bodies just exchanged:`];
  for (const row of WIRE_ROWS) {
    lines.push('', `  ${row.title}`);
    for (const { id, shape } of shapes) {
      const place = shape[row.key];
      lines.push(`    ${id.padEnd(width)}${place === undefined ? '—' : `${place.path}  ${place.shape}`}`);
    }
  }
  lines.push('', 'toolcircuit reads and writes each of these; your code and the trace above stay the same.');
  return `${lines.join('\n')}\n`;
}

function formatWireBodies(outcomes: readonly BackendOutcome[]): string {
  const parts: string[] = [];
  for (const outcome of outcomes) {
    const exchange = outcome.exchange;
    if (exchange === undefined) continue;
    parts.push(
      `── ${outcome.backend.id}: first request body`,
      JSON.stringify(exchange.request, null, 2) ?? '(none)',
      `── ${outcome.backend.id}: its response body`,
      JSON.stringify(exchange.response, null, 2) ?? '(not JSON)',
      `── ${outcome.backend.id}: the next request body (the results going back)`,
      JSON.stringify(exchange.reply, null, 2) ?? '(none)',
    );
  }
  return `${parts.join('\n')}\n`;
}

async function runLive(args: ParsedArgs, io: CliIo): Promise<number> {
  const json = args.flag('json');
  const { config } = await loadCliConfig(io.cwd, args.string('config'));
  const chosen = liveModelConfig(args.string('model'), config?.model, io.env);
  const spec = formatModelSpec(chosen);
  const model = await createModel(chosen, { env: io.env, envOverrides: false });
  const writer: TraceWriter = json
    ? new JsonTraceWriter(io.stdout, { backend: 'live' })
    : new HumanTraceWriter(io.stdout, '  ');
  const progress = new Progress(io.stderr, !json && io.stderr.isTTY === true);
  let turn = 1;
  const live = streamingModel(model, {
    onRequest: () => progress.start(`waiting for ${spec}`),
    onTextDelta: (text) => {
      progress.stop();
      writer.textDelta(turn, text);
    },
    onSettled: () => {
      progress.stop();
      turn += 1;
    },
  });
  if (!json) io.stdout.write(`toolcircuit demo (live): ${spec}\nprompt: ${DEMO_PROMPT}\n\n▸ live: ${spec}\n`);
  const traceFile = traceFileOf(args, io);
  const outcome = await runDemoScenario(live, writer, io.signal, await traceFile?.loop('live'));
  await saveTraceFile(traceFile, io);
  writer.note(`cloturer_dossier ran ${outcome.closeRuns} time(s); journal: ${outcome.journal.length} entries`);
  writer.note(`cost of the run: ${formatCost(outcome.cost.total)}`);
  if (outcome.missing.length > 0) {
    writer.note(`A real model chooses for itself: this run did not show ${outcome.missing.join('; ')}.`);
  }
  return outcome.summary.status === 'completed' ? ExitCode.ok : ExitCode.failed;
}

function traceFileOf(args: ParsedArgs, io: CliIo): TraceFile | undefined {
  const path = args.string('trace');
  return path === undefined ? undefined : new TraceFile(path, io.cwd, 'toolcircuit demo');
}

async function saveTraceFile(traceFile: TraceFile | undefined, io: CliIo): Promise<void> {
  if (traceFile === undefined) return;
  await traceFile.save();
  io.stderr.write(`trace written to ${traceFile.path}; see it with: toolcircuit trace open ${traceFile.path}\n`);
}

function liveModelConfig(
  flag: string | undefined,
  fromFile: string | ModelConfig | undefined,
  env: Readonly<Record<string, string | undefined>>,
): ModelConfig {
  const modelEnv = env[MODEL_ENV];
  if (flag !== undefined || (modelEnv !== undefined && modelEnv !== '') || fromFile !== undefined) {
    return resolveModelConfig({ model: flag, config: fromFile === undefined ? undefined : { model: fromFile }, env });
  }
  const hasKey = (names: readonly string[]) => names.some((name) => (env[name] ?? '').trim() !== '');
  const pick = LIVE_DEFAULTS.find((candidate) => hasKey(DEFAULT_API_KEY_ENV[candidate.provider]));
  if (pick !== undefined) return resolveModelConfig({ model: pick.spec, env });
  const variables = LIVE_DEFAULTS.flatMap((candidate) => DEFAULT_API_KEY_ENV[candidate.provider]).join(', ');
  throw new UsageError(
    `no provider key in the environment, so the demo cannot run live. Set one of ${variables}.`,
    `Or choose the model too: ${MODEL_ENV}=anthropic:claude-haiku-5-5 with ANTHROPIC_API_KEY set. Without --live, \`toolcircuit demo\` runs offline.`,
  );
}
