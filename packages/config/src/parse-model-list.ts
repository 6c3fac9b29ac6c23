import type { ModelConfig } from './model-config.js';
import { parseModelSpec } from './parse-model-spec.js';

/**
 * Parses one model or a fallback list, `"provider:model, provider:model"`: the first answers, the next
 * when it fails (see core's `fallbackModel`). Model ids hold no comma, so a comma always separates two.
 */
export function parseModelList(spec: string, field = 'model'): ModelConfig[] {
  return spec.split(',').map((one) => parseModelSpec(one.trim(), field));
}

/** Whether a model string names a fallback list rather than one model. */
export function isModelList(spec: string): boolean {
  return spec.includes(',');
}
