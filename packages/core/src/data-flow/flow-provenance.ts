import type { ToolDefinition } from '../catalogue/tool.js';
import type { OutputTrust } from '../provenance/provenance-options.js';

/**
 * What a run's data flow asks of the run's provenance (`RunProvenance`, which holds it): which outputs are
 * trusted, which tools are gated, and how much untrusted content a call was made after.
 */
export interface FlowProvenance {
  trustOf(toolName: string): OutputTrust;
  isSensitive(toolName: string): boolean;
  countFor(turn: number, callId: string): number;
  mayGate(toolName: string, definition: ToolDefinition<never>, turn: number, callId: string): boolean;
}
