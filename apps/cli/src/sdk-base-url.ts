import type { CassetteProtocol } from '@toolcircuit/testing';

/**
 * The base URL each official SDK wants for a local server at `root` (apps/cli/README.md has the table):
 * Anthropic and Gemini take the root, OpenAI the root plus `/v1`. TOOLCIRCUIT_BASE_URL takes the same value.
 */
export function sdkBaseUrl(protocol: CassetteProtocol, root: string): string {
  return protocol === 'openai-chat' || protocol === 'openai-responses' ? `${root}/v1` : root;
}
