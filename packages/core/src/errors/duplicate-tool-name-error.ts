import { ToolcircuitError } from './toolcircuit-error.js';

/** Two tools of one catalogue share a name: the model could not say which one it means. */
export class DuplicateToolNameError extends ToolcircuitError {
  readonly kind = 'configuration' as const;
  readonly code = 'duplicate_tool_name' as const;
  readonly toolName: string;

  constructor(toolName: string) {
    super(
      `Tool "${toolName}" is registered twice in the same catalogue. Tool names are how the model picks a tool, ` +
        'so they must be unique: rename one of the two definitions or remove the duplicate.',
    );
    this.toolName = toolName;
  }
}
