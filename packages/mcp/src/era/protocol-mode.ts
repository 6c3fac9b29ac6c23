import type { VersionNegotiationOptions } from '@modelcontextprotocol/client';
import { InvalidMcpServerError } from '../errors/invalid-mcp-server-error.js';

/** The stateless, discovery-first revision (`server/discover`, per-request `_meta`, `input_required`). */
export const MODERN_REVISION = '2026-07-28';

/**
 * Which protocol revisions the importer speaks:
 * - `auto` (default): `server/discover` first, 2026-07-28 where the server offers it, else the 2025-era
 *   `initialize` handshake (2024-11-05 … 2025-11-25), automatically;
 * - `2025`: the 2025-era handshake only (no probe: for servers that stall on unknown requests);
 * - `2026-07-28`: that revision or nothing (the connection fails against a 2025-only server).
 */
export type McpProtocolMode = 'auto' | '2025' | typeof MODERN_REVISION;

/** Which era a negotiated revision belongs to. */
export type McpEra = 'modern' | 'legacy';

/** The SDK client's negotiation options for a mode; the probe is bounded like any other request. */
export function versionNegotiationOf(mode: McpProtocolMode, probeTimeoutMs: number): VersionNegotiationOptions {
  switch (mode) {
    case 'auto':
      return { mode: 'auto', probe: { timeoutMs: probeTimeoutMs } };
    case '2025':
      return { mode: 'legacy' };
    case MODERN_REVISION:
      return { mode: { pin: MODERN_REVISION }, probe: { timeoutMs: probeTimeoutMs } };
    default:
      throw new InvalidMcpServerError(
        'protocol',
        `${JSON.stringify(mode)} is not a protocol mode: use 'auto' (default), '2025' or '${MODERN_REVISION}'.`,
      );
  }
}

/** 2026-07-28 and later revisions are the modern era; every earlier one is the 2025 era. */
export function eraOf(revision: string): McpEra {
  return revision >= MODERN_REVISION ? 'modern' : 'legacy';
}
