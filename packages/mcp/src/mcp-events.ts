import type { McpEra } from './era/protocol-mode.js';
import type { McpToolInfo } from './tool-policy.js';

/** A tool whose definition on the server no longer matches the pinned one. */
export interface McpDefinitionChange {
  readonly server: string;
  /** The tool's name in the catalogue. */
  readonly toolName: string;
  readonly pinnedFingerprint: string;
  /** `null` when the server no longer offers the tool at all. */
  readonly currentFingerprint: string | null;
  readonly pinned: McpToolInfo;
  readonly current: McpToolInfo | null;
}

/** What an MCP connection reports to the application (`connectMcpServer({ onEvent })`). */
export type McpEvent =
  /** The connection is up: the revision negotiated (2026-07-28 where both sides speak it, else a 2025 one). */
  | {
      readonly type: 'connected';
      readonly server: string;
      readonly protocolVersion: string;
      readonly era: McpEra;
    }
  /** A tool's definition changed after it was pinned: approvals for it are void, it does not run. */
  | ({ readonly type: 'definition-changed'; readonly voidedApprovals: number } & McpDefinitionChange)
  /** The application accepted a tool's new definition (`accept`); earlier approvals stay void. */
  | {
      readonly type: 'definition-accepted';
      readonly server: string;
      readonly toolName: string;
      readonly fingerprint: string;
    }
  /** A tool the server started offering after the import (not in any catalogue built before). */
  | { readonly type: 'tool-added'; readonly server: string; readonly toolName: string; readonly fingerprint: string }
  /** A tool left out of the catalogue because toolcircuit cannot use it (e.g. a schema that does not compile). */
  | { readonly type: 'tool-skipped'; readonly server: string; readonly mcpName: string; readonly reason: string }
  /** A `notifications/progress` for a running call. */
  | {
      readonly type: 'progress';
      readonly server: string;
      readonly toolName: string;
      readonly callId: string;
      readonly progress: number;
      readonly total?: number;
      readonly message?: string;
    }
  /**
   * A call runs as a task (2025-11-25 tasks): its id, stored in the connection's `tasks` store; `resumed`
   * when the id was already there (a restarted worker collecting the task it started).
   */
  | {
      readonly type: 'task';
      readonly server: string;
      readonly toolName: string;
      readonly callId: string;
      readonly taskId: string;
      readonly resumed: boolean;
    }
  /** Listing the tools failed (after `notifications/tools/list_changed` or before an irreversible call). */
  | { readonly type: 'list-failed'; readonly server: string; readonly message: string };
