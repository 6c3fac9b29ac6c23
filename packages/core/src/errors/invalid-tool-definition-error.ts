import { ToolcircuitError } from './toolcircuit-error.js';

/**
 * A tool definition misses something the circuit needs. The most important case is a missing `right`:
 * rights are deny-by-default, so a tool must say which right it needs, or say `everySession` explicitly.
 */
export class InvalidToolDefinitionError extends ToolcircuitError {
  readonly kind = 'configuration' as const;
  readonly code = 'invalid_tool_definition' as const;
  readonly toolName: string;

  constructor(toolName: string, problemAndFix: string) {
    super(`Tool "${toolName}" is not a valid definition: ${problemAndFix}`);
    this.toolName = toolName;
  }
}
