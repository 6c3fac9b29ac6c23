import { resolve } from 'node:path';
import {
  createModel,
  DEFAULT_API_KEY_ENV,
  formatModelSpec,
  MODEL_ENV,
  type ModelConfig,
  resolveModelConfig,
} from '@toolcircuit/config';
import { loadCassette, startReplayServer } from '@toolcircuit/testing';
import type { CliIo } from '../cli-io.js';
import type { Command } from '../command.js';
import { DEMO_BACKENDS, type DemoBackend, demoCassettesDirectory } from '../demo/demo-backends.js';
import { DEMO_PROMPT } from '../demo/demo-catalogue.js';
import { type DemoScenarioOutcome, runDemoScenario } from '../demo/run-demo-scenario.js';
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
  { spec: 'anthropic:claude-haiku-4-5', provider: 'anthropic' },
  { spec: 'openai:gpt-4.1-mini', provider: 'openai' },
  { spec: 'google:gemini-2.5-flash', provider: 'google' },
];

export const demoCommand: Command = {
  name: 'demo',
  summary: 'Run the example catalogue through every provider adapter and SDK, offline, and compare the traces.',
  usage: 'toolcircuit demo [--live] [--model provider:model] [--json] [--trace file]',
  description: [
    'One catalogue (chercher_dossier, supprimer_dossier, cloturer_dossier), one prompt, five backends:',
    ...DEMO_BACKENDS.map((backend) => `  ${backend.id.padEnd(22)}${backend.label}`),
    'Each runs against a local replay server serving a SYNTHETIC cassette (cassettes/demo/), through the',
    "official SDK's real HTTP code. Every backend must show the same neutral trace: one call refused by the",
    "schema, one refused for a missing right, one irreversible call paused, approved by the demo's human and",
    'run exactly once. The last line says whether all traces are identical.',
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
  const outcomes: { backend: DemoBackend; trace: readonly TraceEvent[]; problems: string[] }[] = [];
  const traceFile = traceFileOf(args, io);
  for (const backend of DEMO_BACKENDS) {
    const writer: TraceWriter = json
      ? new JsonTraceWriter(io.stdout, { backend: backend.id })
      : new HumanTraceWriter(io.stdout, '  ');
    const cassette = loadCassette(backend.cassette, { directory });
    if (!json) {
      const where = flag === undefined ? `demo/${backend.cassette}.json` : `${backend.cassette}.json in ${flag}`;
      io.stdout.write(`▸ ${backend.id}: ${backend.label} (cassette ${where}, ${cassette.provenance.kind})\n`);
    }
    const server = await startReplayServer(cassette);
    const problems: string[] = [];
    let outcome: DemoScenarioOutcome | undefined;
    try {
      const model = await createModel(backend.config(server.url, cassette.model ?? 'demo-model'), {
        env: OFFLINE_KEYS,
      });
      outcome = await runDemoScenario(model, writer, io.signal, await traceFile?.loop(backend.id));
      problems.push(...outcome.missing.map((what) => `did not show ${what}`));
      writer.note(`cloturer_dossier ran ${outcome.closeRuns} time(s); journal: ${outcome.journal.length} entries`);
    } catch (error) {
      problems.push(`failed: ${(error as Error).message}`);
    } finally {
      await server.close();
    }
    for (const mismatch of server.mismatches)
      problems.push(`request #${mismatch.index + 1} did not match the cassette: ${mismatch.reason}`);
    if (outcome !== undefined && server.remaining > 0)
      problems.push(`${server.remaining} recorded response(s) were never requested`);
    for (const problem of problems) writer.note(`PROBLEM: ${problem}`);
    if (!json) io.stdout.write('\n');
    outcomes.push({ backend, trace: outcome?.trace ?? [], problems });
  }

  await saveTraceFile(traceFile, io);
  const [reference] = outcomes;
  const differing = outcomes.filter((outcome) => JSON.stringify(outcome.trace) !== JSON.stringify(reference?.trace));
  const failed = outcomes.filter((outcome) => outcome.problems.length > 0);
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
        })),
      })}\n`,
    );
  } else if (identical) {
    io.stdout.write(`All ${outcomes.length} traces are identical.\n`);
  } else {
    const names = differing.map((outcome) => outcome.backend.id).join(', ');
    io.stdout.write(
      `Traces differ: ${names} ${differing.length === 1 ? 'differs' : 'differ'} from ${reference?.backend.id ?? 'the first backend'}.\n`,
    );
  }
  if (!json && failed.length > 0 && identical) {
    io.stdout.write(`…but ${failed.map((outcome) => outcome.backend.id).join(', ')} reported problems (see above).\n`);
  }
  return identical && failed.length === 0 ? ExitCode.ok : ExitCode.failed;
}

async function runLive(args: ParsedArgs, io: CliIo): Promise<number> {
  const json = args.flag('json');
  const { config } = await loadCliConfig(io.cwd, args.string('config'));
  const chosen = liveModelConfig(args.string('model'), config?.model, io.env);
  const spec = formatModelSpec(chosen);
  const model = await createModel(chosen, { env: io.env });
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
    `Or choose the model too: ${MODEL_ENV}=anthropic:claude-haiku-4-5 with ANTHROPIC_API_KEY set. Without --live, \`toolcircuit demo\` runs offline.`,
  );
}
