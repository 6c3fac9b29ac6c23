import { Anthropic } from '@anthropic-ai/sdk';
import type { MessageCreateParams } from '@anthropic-ai/sdk/resources/messages';
import type { JsonTextCache } from '@toolcircuit/core';
import { stringifyRequestBody } from '@toolcircuit/core/provider';
import type { AnthropicRequestBody } from './build-anthropic-request.js';

/**
 * What `messages.create` is given: the built body plus `stream` (and `temperature`, `context_management`, see
 * AnthropicRequestBody).
 */
export type AnthropicCreateParams = MessageCreateParams &
  Pick<AnthropicRequestBody, 'temperature' | 'context_management'>;

// One cache for every model: the text of a sealed converted message or tool list depends on nothing else, and
// the conversions it is keyed by are themselves shared by all models (module-level caches). A cache per model
// would only make the same text again for a second model over the same history (a fallback, a router).
const texts: JsonTextCache = new WeakMap();

/**
 * The exact text `messages.create` would send for `params` (SDK 1.14.0: `JSON.stringify` of `params` without
 * its header params), reusing the text of every sealed converted message and tool list already sent, so a
 * step serialises only its new turns. `params` must still go to the SDK whole: it reads `model`, `stream`,
 * `max_tokens` (the non-streaming timeout), `tools`/`messages` (a telemetry header) and the header params
 * from there.
 */
export function anthropicRequestBodyText(params: AnthropicCreateParams): string {
  // `messages.create` sends these as the anthropic-user-profile-id / anthropic-workspace-id headers instead.
  const { user_profile_id: _profile, workspace_id: _workspace, ...sent } = params;
  return stringifyRequestBody(sent, texts);
}

/**
 * Whether this client can be given the body as text. Only the SDK's own class is known to send a string body
 * untouched (with a content-type); a subclass may read the body object in its hooks. While the client traces
 * to a tracer provider (its own, or one the application registered globally), the object goes too: the SDK
 * starts its call span with attributes read from the body option (model, max_tokens, thinking…), which a
 * string does not have. Checked per call: an application may register its provider after building the model.
 */
export function sendsBodyText(client: Anthropic): boolean {
  if (Object.getPrototypeOf(client) !== Anthropic.prototype) return false;
  const { traces, tracerProvider } = client.openTelemetry;
  return !traces.enabled || (tracerProvider === undefined && !globalTracerProviderRegistered());
}

// Where @opentelemetry/api 1.x (the SDK's tracing API) keeps its globals, shared by every copy of the package;
// `trace` is set there once an application registers a tracer provider, and removed by `trace.disable()`.
const OPEN_TELEMETRY_GLOBALS = Symbol.for('opentelemetry.js.api.1');

function globalTracerProviderRegistered(): boolean {
  const globals: unknown = (globalThis as Record<symbol, unknown>)[OPEN_TELEMETRY_GLOBALS];
  return typeof globals === 'object' && globals !== null && (globals as { trace?: unknown }).trace !== undefined;
}
