import { ToolcircuitError } from './toolcircuit-error.js';

/**
 * A tool name that no provider accepts. Core only refuses names that are hopeless everywhere; a name that
 * some providers reject (a dot, a leading digit, more than 64 characters) is accepted here and renamed per
 * provider by the schema/name mapping layer.
 */
export class InvalidToolNameError extends ToolcircuitError {
  readonly kind = 'configuration' as const;
  readonly code = 'invalid_tool_name' as const;
  readonly toolName: string;

  constructor(toolName: string, problem: string) {
    super(
      `Tool name ${JSON.stringify(toolName.slice(0, 140))} is accepted by no provider: ${problem}. ` +
        'Use 1 to 128 characters from A-Z, a-z, 0-9, "_", "-" and "." (for every provider at once: ' +
        'start with a letter or "_", stay within 64 characters and avoid ".", i.e. ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$).',
    );
    this.toolName = toolName;
  }
}
