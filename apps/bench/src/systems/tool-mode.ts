/**
 * How the scenario's tool answers: `sync` returns its value, `async` returns a promise of it (what a tool
 * doing I/O does). Every system runs the same function either way.
 */
export type ToolMode = 'sync' | 'async';

export function toolModeSuffix(tool: ToolMode): string {
  return tool === 'async' ? ' (async tool)' : '';
}
