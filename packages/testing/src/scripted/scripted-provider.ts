import type { ModelTurn } from '@toolcircuit/core';
import type { Cassette, CassetteProtocol } from '../cassettes/cassette.js';
import { type ReplayServer, startReplayServer } from '../replay/replay-server.js';
import { scriptedCassette } from './scripted-cassette.js';

/** What a `"provider:model"` string's provider speaks, and where its SDK reads the key (as `@toolcircuit/config`). */
const PROVIDERS: Readonly<Record<string, { protocol: CassetteProtocol; keyEnv?: string; suffix: string }>> = {
  anthropic: { protocol: 'anthropic-messages', keyEnv: 'ANTHROPIC_API_KEY', suffix: '' },
  openai: { protocol: 'openai-chat', keyEnv: 'OPENAI_API_KEY', suffix: '/v1' },
  'openai-compatible': { protocol: 'openai-chat', suffix: '/v1' },
  'openai-responses': { protocol: 'openai-responses', keyEnv: 'OPENAI_API_KEY', suffix: '/v1' },
  google: { protocol: 'gemini', keyEnv: 'GEMINI_API_KEY', suffix: '' },
};

export interface ScriptedProviderOptions {
  /** Port on 127.0.0.1; 0 (the default) picks a free one. */
  readonly port?: number;
  /** Names the conversation in the cassette's provenance and seeds its made-up ids. */
  readonly name?: string;
}

/** A local server answering as one provider would, from scripted turns: an offline model for any adapter. */
export interface ScriptedProvider {
  /** The `"provider:model"` string it answers for, as given. */
  readonly spec: string;
  /** `http://127.0.0.1:PORT`, the server root. */
  readonly url: string;
  /** The base URL to give the provider's SDK or `createModel` (OpenAI's includes `/v1`). */
  readonly baseURL: string;
  /**
   * Environment for `createModel(spec, { env })` or for a child process running your unchanged app:
   * `TOOLCIRCUIT_MODEL` (the spec), `TOOLCIRCUIT_BASE_URL` (this server) and a placeholder key in the
   * provider's variable (the key only ever reaches 127.0.0.1).
   */
  readonly env: Readonly<Record<string, string>>;
  /** The cassette being served (write it to a file to serve it with `toolcircuit replay`). */
  readonly cassette: Cassette;
  /** Every request received, mismatches and interactions left (see `startReplayServer`). */
  readonly server: ReplayServer;
  /** Throws `ReplayIncompleteError` when a turn was never asked for or a request did not match. */
  assertDone(): void;
  close(): Promise<void>;
}

/**
 * Starts a replay server on 127.0.0.1 that answers, in `spec`'s provider wire format, with `turns` in order
 * (see {@link scriptedCassette}). Point the real adapter at it (`env` or `baseURL`) and a run goes through
 * the adapter and its official SDK over HTTP, offline, with no key: the no-key variant of an application,
 * an example or a test. Requests are not streamed: a streaming request is refused with a hint.
 *
 * @example
 * const offline = await startScriptedProvider('anthropic:claude-sonnet-5-5', [
 *   toolCallsTurn([{ name: 'chercher_dossier', input: { numero: 'A-1234' } }]),
 *   textTurn('Le dossier A-1234 est ouvert.'),
 * ]);
 * const model = await createModel('anthropic:claude-sonnet-5-5', { env: offline.env });
 */
export async function startScriptedProvider(
  spec: string,
  turns: readonly ModelTurn[],
  options: ScriptedProviderOptions = {},
): Promise<ScriptedProvider> {
  const colon = spec.indexOf(':');
  const providerName = colon === -1 ? spec : spec.slice(0, colon);
  const model = colon === -1 ? '' : spec.slice(colon + 1);
  const provider = PROVIDERS[providerName];
  if (provider === undefined || model === '') {
    throw new TypeError(
      `startScriptedProvider: "${spec}" is not "provider:model" with a provider among ${Object.keys(PROVIDERS).join(', ')}.`,
    );
  }
  const cassette = scriptedCassette(provider.protocol, turns, {
    model,
    ...(options.name === undefined ? {} : { name: options.name }),
  });
  const server = await startReplayServer(cassette, options.port === undefined ? {} : { port: options.port });
  const baseURL = `${server.url}${provider.suffix}`;
  return {
    spec,
    url: server.url,
    baseURL,
    env: {
      TOOLCIRCUIT_MODEL: spec,
      TOOLCIRCUIT_BASE_URL: baseURL,
      ...(provider.keyEnv === undefined ? {} : { [provider.keyEnv]: 'offline-placeholder' }),
    },
    cassette,
    server,
    assertDone: () => server.assertDone(),
    close: () => server.close(),
  };
}
