import type { BenchSystem, SystemId } from './bench-system.js';

export const SYSTEM_IDS: readonly SystemId[] = ['toolcircuit', 'hand-written', 'ai', 'openai-agents'];

export function isSystemId(value: string): value is SystemId {
  return (SYSTEM_IDS as readonly string[]).includes(value);
}

/**
 * Imports ONE system's module (and so one library): a child process measuring a system's memory must
 * not also carry the other libraries' code.
 */
export async function loadSystem(id: SystemId): Promise<BenchSystem> {
  switch (id) {
    case 'toolcircuit':
      return (await import('./toolcircuit-system.js')).toolcircuitSystem();
    case 'hand-written':
      return (await import('./hand-written-system.js')).handWrittenSystem();
    case 'ai':
      return (await import('./ai-system.js')).aiSystem();
    case 'openai-agents':
      return (await import('./openai-agents-system.js')).openAIAgentsSystem();
  }
}
