import { ToolcircuitError } from '@toolcircuit/core/provider';

/** The catalogue's tool names cannot be mapped one-to-one (a duplicate, or an empty name). */
export class ToolNameError extends ToolcircuitError {
  readonly kind = 'configuration' as const;
  readonly code: 'duplicate_tool_name' | 'empty_tool_name';
  readonly toolName: string;

  constructor(code: 'duplicate_tool_name' | 'empty_tool_name', toolName: string) {
    super(
      code === 'duplicate_tool_name'
        ? `Tool name "${toolName}" appears twice in the catalogue; provider names could not be mapped back.`
        : 'A tool has an empty name; give every tool a non-empty name.',
    );
    this.code = code;
    this.toolName = toolName;
  }
}
