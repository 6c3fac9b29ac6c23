import type { BenchSystem, SystemId, SystemSpec } from './bench-system.js';

export const SYSTEM_IDS: readonly SystemId[] = ['toolcircuit', 'hand-written', 'ai', 'openai-agents'];
const ALL_IDS: readonly SystemId[] = [...SYSTEM_IDS, 'ai7'];

export function isSystemId(value: string): value is SystemId {
  return (ALL_IDS as readonly string[]).includes(value);
}

/**
 * Imports ONE system's module (and so one library): a child process measuring a system's memory must
 * not also carry the other libraries' code.
 */
export async function loadSystem(spec: SystemId | SystemSpec): Promise<BenchSystem> {
  const { id, tool = 'sync', ...variant } = typeof spec === 'string' ? { id: spec } : spec;
  switch (id) {
    case 'toolcircuit':
      return (await import('./toolcircuit-system.js')).toolcircuitSystem({ tool, ...variant });
    case 'hand-written':
      return (await import('./hand-written-system.js')).handWrittenSystem(tool, variant);
    case 'ai':
      return (await import('./ai-system.js')).aiSystem(tool);
    case 'ai7':
      return (await import('./ai7-system.js')).ai7System(tool);
    case 'openai-agents':
      return (await import('./openai-agents-system.js')).openAIAgentsSystem();
  }
}

/** A spec from a child process's argument (JSON), checked. */
export function parseSystemSpec(text: string): SystemSpec {
  const spec = JSON.parse(text) as SystemSpec;
  if (typeof spec !== 'object' || spec === null || !isSystemId(spec.id)) {
    throw new Error(`Not a system spec: ${text}`);
  }
  return spec;
}
