import type { ModelTurn } from '../messages/model-turn.js';
import { ProviderError } from './provider-error.js';

/**
 * For adapters: the turn holds a request to act of a kind the adapter cannot answer (`kind`: the provider's
 * own item or block type), so no request that follows could pair a result with it. Not retryable: the same
 * request gets the same kind of call. The turn, with that request kept as a `provider` part, is on the
 * error's `turn`, so nothing the provider sent is lost.
 */
export function unsupportedCallError(provider: string, kind: string, turn: ModelTurn): ProviderError {
  const error = new ProviderError({
    provider,
    code: 'unsupported_call',
    message:
      `the model asked for a "${kind}", a kind of call this adapter cannot answer; nothing ran. Declare a catalogue ` +
      'tool of that type (see `builtin` and `defineTextTool`), or stop offering the provider tool that makes it.',
    retryable: false,
    providerCode: kind,
  });
  return Object.assign(error, { turn });
}

/** The turn an `unsupported_call` error carries (see {@link unsupportedCallError}), if any. */
export function turnOfUnsupportedCall(error: unknown): ModelTurn | undefined {
  if (!(error instanceof ProviderError) || error.code !== 'unsupported_call') return undefined;
  return (error as ProviderError & { turn?: ModelTurn }).turn;
}
