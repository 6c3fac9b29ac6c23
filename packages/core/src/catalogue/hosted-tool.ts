import { InvalidToolDefinitionError } from '../errors/invalid-tool-definition-error.js';
import type { JsonObject } from '../json/json.js';
import type { ProviderOptions } from '../messages/provider-metadata.js';

/** Hosted tools that several providers run themselves, declared once for all of them. */
export type HostedToolKind = 'web_search' | 'code_execution';

/** Neutral settings; each adapter maps those its provider has and says which it cannot honour. */
export interface HostedToolOptions {
  /** Upper bound on uses per request (Anthropic `max_uses`). */
  readonly maxUses?: number;
  /** Only search these domains (Anthropic `allowed_domains`, OpenAI Responses `filters.allowed_domains`). */
  readonly allowedDomains?: readonly string[];
  /** Never search these domains (Anthropic `blocked_domains`). */
  readonly blockedDomains?: readonly string[];
}

/**
 * A tool the provider runs on its side (web search, code execution…): it is not in the catalogue, never
 * goes through the four checks (nothing runs here), and its blocks stay in the conversation as each adapter
 * keeps them. `kind: 'provider'` is a provider-specific tool given raw, per provider, in `providerOptions`:
 * it is sent only to the providers it names.
 */
export interface HostedTool {
  readonly type: 'hosted';
  readonly kind: HostedToolKind | 'provider';
  readonly options?: HostedToolOptions;
  /** Raw fields per provider, merged over the mapped entry (or the whole entry, for `kind: 'provider'`). */
  readonly providerOptions?: ProviderOptions;
}

const KINDS: readonly string[] = ['web_search', 'code_execution'];

/**
 * A hosted tool in its neutral shape, e.g. `hostedTool('web_search', { maxUses: 3 })`: Anthropic
 * `web_search_20250305`, OpenAI Responses `web_search`, Gemini `googleSearch`. An adapter whose provider
 * lacks the kind refuses the request with its configuration error instead of dropping the tool.
 */
export function hostedTool(
  kind: HostedToolKind,
  options: HostedToolOptions & { readonly providerOptions?: ProviderOptions } = {},
): HostedTool {
  if (!KINDS.includes(kind)) {
    throw new InvalidToolDefinitionError(
      String(kind),
      `there is no neutral hosted tool "${String(kind)}"; use one of ${KINDS.join(', ')}, or providerTool({ provider: {...} }) for a provider's own.`,
    );
  }
  const { providerOptions, ...neutral } = options;
  const maxUses = neutral.maxUses;
  if (maxUses !== undefined && !(Number.isInteger(maxUses) && maxUses >= 1)) {
    throw new InvalidToolDefinitionError(kind, `maxUses must be a whole number, 1 or more (got ${String(maxUses)}).`);
  }
  return Object.freeze({
    type: 'hosted',
    kind,
    ...(Object.keys(neutral).length === 0 ? {} : { options: Object.freeze({ ...neutral }) }),
    ...(providerOptions === undefined ? {} : { providerOptions }),
  });
}

/**
 * A provider's own hosted tool, given as its raw wire entry per provider, e.g.
 * `providerTool({ anthropic: { type: 'bash_20250124', name: 'bash' } })`. Providers it does not name never see it.
 */
export function providerTool(entries: Readonly<Record<string, JsonObject>>): HostedTool {
  if (Object.keys(entries).length === 0) {
    throw new InvalidToolDefinitionError(
      'providerTool',
      'give at least one provider entry, e.g. { anthropic: {...} }.',
    );
  }
  return Object.freeze({ type: 'hosted', kind: 'provider', providerOptions: entries });
}
