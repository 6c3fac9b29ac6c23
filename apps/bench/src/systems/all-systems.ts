import { aiSystem } from './ai-system.js';
import type { BenchSystem } from './bench-system.js';
import { handWrittenSystem } from './hand-written-system.js';
import { openAIAgentsSystem } from './openai-agents-system.js';
import { toolcircuitSystem } from './toolcircuit-system.js';

/** The systems of the main matrix, toolcircuit first: every ratio is "system / toolcircuit". */
export function allSystems(): BenchSystem[] {
  return [toolcircuitSystem(), handWrittenSystem(), aiSystem(), openAIAgentsSystem()];
}
