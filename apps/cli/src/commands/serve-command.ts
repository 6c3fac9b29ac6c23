import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createModel, DEFAULT_API_KEY_ENV, formatModelSpec, resolveModelConfig } from '@toolcircuit/config';
import { createSession, type Model } from '@toolcircuit/core';
import { loadCatalogueModule } from '../catalogue/load-catalogue-module.js';
import { operatorSession } from '../catalogue/operator-session.js';
import type { Command } from '../command.js';
import { UsageError } from '../errors/usage-error.js';
import { ExitCode } from '../exit-codes.js';
import { sdkBaseUrl } from '../sdk-base-url.js';
import { loadAuthenticate, tokenAuthenticate } from '../serve/load-authenticate.js';
import { DEFAULT_STORE, openRunStore } from '../serve/open-run-store.js';
import { portOf } from '../trace/serve-until-stopped.js';

const DEFAULT_PORT = 8787;

/** The inbox page, copied next to the CLI's own files by its build (`scripts/copy-inbox.mjs`). */
function inboxDirectory(): string {
  return fileURLToPath(new URL('../inbox/', import.meta.url));
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Serve durable runs of a catalogue over HTTP with the approval inbox page (on 127.0.0.1).',
  usage:
    'toolcircuit serve --catalogue <module> [--model provider:model] [--store sqlite:<file> | postgres://…] [--port <n>] [--replay <cassette.json>] [--auth <module>]',
  description: [
    'Starts the run server of @toolcircuit/server and the approval inbox page on 127.0.0.1: start runs from',
    'the page, follow them, and approve or decline their irreversible calls with the exact arguments, the',
    'untrusted sources and the values copied from them in view. Runs are kept in the store (default',
    `${DEFAULT_STORE}), so a server started again over it goes on with the runs it paused.`,
    '',
    'Who is asking: without --auth, the server makes a login token at start and prints a link that carries',
    'it; whoever holds it acts as the local human (--human, default $USER, with the --right rights or the',
    "module's exported session). With --auth, the module's `authenticate(request)` (or default export)",
    'builds the session of each request from your own authentication, and no token is made.',
    '',
    'Model: --model, else TOOLCIRCUIT_MODEL. With --replay, the model',
    'is played offline from a cassette by a local replay server (no key needed): each model request takes',
    'the next recorded answer, so a cassette carries as many runs as it recorded.',
  ].join('\n'),
  options: {
    catalogue: { type: 'string', valueName: 'module', description: 'the catalogue module (exports `catalogue`)' },
    model: { type: 'string', short: 'm', valueName: 'provider:model', description: 'e.g. anthropic:claude-haiku-5-5' },
    store: {
      type: 'string',
      valueName: 'sqlite:<file>|postgres://…',
      description: `where runs are kept (default ${DEFAULT_STORE})`,
    },
    port: { type: 'string', valueName: 'n', description: `port on 127.0.0.1 (default ${DEFAULT_PORT}; 0: a free one)` },
    replay: { type: 'string', valueName: 'cassette.json', description: 'play the model from a cassette, offline' },
    auth: { type: 'string', valueName: 'module', description: 'a module exporting authenticate(request) → session' },
    human: { type: 'string', valueName: 'id', description: 'who the login token acts for (default: $USER)' },
    right: {
      type: 'string',
      short: 'r',
      multiple: true,
      valueName: 'name',
      description: 'a right the login token holds, e.g. payments:write',
    },
  },
  examples: [
    'toolcircuit serve --catalogue dist/tools.js --model anthropic:claude-haiku-5-5 --right payments:write',
    'toolcircuit serve --catalogue dist/tools.js --model anthropic:claude-haiku-5-5 --replay cassettes/pay.json',
  ],
  exitCodes: [
    [ExitCode.ok, 'stopped with Ctrl-C'],
    [ExitCode.usage, 'missing or bad flag, missing module or cassette, unknown provider, missing key, port in use'],
  ],
  async run(args, io) {
    if (args.positionals.length > 0) {
      throw new UsageError(
        `serve takes no positional arguments (got "${args.positionals.join(' ')}").`,
        'Use --catalogue <module>.',
      );
    }
    const catalogueArg = args.string('catalogue');
    if (catalogueArg === undefined) {
      throw new UsageError(
        'no catalogue given.',
        'Usage: toolcircuit serve --catalogue <module> --model provider:model',
      );
    }
    const catalogueFile = resolve(io.cwd, catalogueArg);
    if (!existsSync(catalogueFile))
      throw new UsageError(`no such file: ${catalogueArg} (looked for ${catalogueFile}).`);
    const authArg = args.string('auth');
    const authFile = authArg === undefined ? undefined : resolve(io.cwd, authArg);
    if (authFile !== undefined && !existsSync(authFile))
      throw new UsageError(`no such file: ${authArg} (looked for ${authFile}).`);
    const replayArg = args.string('replay');
    const replayFile = replayArg === undefined ? undefined : resolve(io.cwd, replayArg);
    if (replayFile !== undefined && !existsSync(replayFile)) {
      throw new UsageError(`no such file: ${replayArg} (looked for ${replayFile}).`);
    }
    const port = args.string('port') === undefined ? DEFAULT_PORT : portOf(args);
    const page = inboxDirectory();
    if (!existsSync(resolve(page, 'index.html'))) throw new Error(`the inbox page is missing from the CLI (${page}).`);

    const loaded = await loadCatalogueModule(catalogueFile);
    const replay = replayFile === undefined ? undefined : await startReplay(replayFile);
    const stores: { close(): Promise<void> }[] = [];
    try {
      const env =
        replay === undefined ? io.env : { ...placeholderKeys(), ...io.env, TOOLCIRCUIT_BASE_URL: replay.baseUrl };
      const modelConfig = resolveModelConfig({ model: args.string('model'), env });
      const model = asRecorded(await createModel(modelConfig, { env, envOverrides: false }), replay);
      const opened = await openRunStore(args.string('store') ?? DEFAULT_STORE, io.cwd);
      stores.push(opened);
      const local = operatorSession(args, loaded.session, io);
      const token = authFile === undefined ? randomBytes(24).toString('base64url') : undefined;
      const authenticate =
        authFile !== undefined
          ? await loadAuthenticate(authFile)
          : tokenAuthenticate(
              token ?? '',
              // One login: its own session id, the local human's rights.
              createSession({ id: `serve-${randomUUID()}`, humanId: local.humanId, rights: [...local.rights] }),
            );
      const { createRunServer, toNodeListener, withStaticPage } = await import('@toolcircuit/server');
      const runs = createRunServer({
        store: opened.store,
        model,
        catalogue: loaded.catalogue,
        authenticate,
        ...(loaded.system === undefined ? {} : { system: loaded.system }),
        onError: (error) =>
          io.stderr.write(
            `request failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
          ),
      });
      const server = createServer(toNodeListener(withStaticPage(runs, { directory: page })));
      await new Promise<void>((ready, fail) => {
        server.once('error', (error: NodeJS.ErrnoException) =>
          fail(
            error.code === 'EADDRINUSE'
              ? new UsageError(`port ${port} is in use on 127.0.0.1.`, 'Choose another with --port, or --port 0.')
              : error,
          ),
        );
        server.listen(port, '127.0.0.1', () => ready());
      });
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      io.stdout.write(
        [
          `toolcircuit serve: ${loaded.catalogue.names.length} tool(s) on ${formatModelSpec(modelConfig)}${replay === undefined ? '' : ` (replayed from ${replayArg})`}; runs in ${opened.label}`,
          `api: ${url}`,
          token === undefined ? `inbox: ${url} (sign-in through ${authArg})` : `inbox: ${url}#token=${token}`,
          ...(token === undefined
            ? []
            : [`login token: ${token} (for ${local.humanId}; keep it to yourself, it is made anew at each start)`]),
          '(serving on 127.0.0.1 only; Ctrl-C to stop)',
          '',
        ].join('\n'),
      );
      await new Promise<void>((stopped) => {
        if (io.signal.aborted) stopped();
        else io.signal.addEventListener('abort', () => stopped(), { once: true });
      });
      server.closeAllConnections();
      await new Promise<void>((closed) => server.close(() => closed()));
      return ExitCode.ok;
    } finally {
      for (const store of stores) await store.close();
      await replay?.close();
    }
  },
};

/** The replay server a `--replay` cassette is played from, and the base URL the adapter's SDK needs. */
async function startReplay(file: string): Promise<{ baseUrl: string; streamed: boolean; close(): Promise<void> }> {
  const { loadCassette, recordedAsStream, startReplayServer } = await import('@toolcircuit/testing');
  const cassette = loadCassette(basename(file), { directory: dirname(file) });
  const server = await startReplayServer(cassette);
  return {
    baseUrl: sdkBaseUrl(cassette.protocol, server.url),
    // The server streams each run's events, so the loop asks a streaming adapter for streams: a cassette
    // recorded with whole answers must be played with whole turns, or every request is a mismatch.
    streamed: cassette.interactions.some((interaction) => recordedAsStream(interaction) === true),
    close: () => server.close(),
  };
}

/** The model as it was recorded: without `stream` when the cassette holds whole answers. */
function asRecorded(model: Model, replay: { readonly streamed: boolean } | undefined): Model {
  if (replay === undefined || replay.streamed || model.stream === undefined) return model;
  // A new object rather than a copy: an adapter's model may keep its methods on its prototype.
  return {
    provider: model.provider,
    modelId: model.modelId,
    ...(model.clearsToolResults === undefined ? {} : { clearsToolResults: model.clearsToolResults }),
    generate: (request) => model.generate(request),
  };
}

/** Replayed providers need no key; the SDKs still want one to be set. */
function placeholderKeys(): Record<string, string> {
  return Object.fromEntries(
    Object.values(DEFAULT_API_KEY_ENV).flatMap((names) => names.map((name) => [name, 'replay-no-key'])),
  );
}
