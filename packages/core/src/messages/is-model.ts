import type { Model } from './model.js';

/** Whether a value is a model an adapter built: what the loop checks before it asks one. */
export function isModel(value: unknown): value is Model {
  if (typeof value !== 'object' || value === null) return false;
  const model = value as Partial<Model>;
  return (
    typeof model.generate === 'function' && typeof model.provider === 'string' && typeof model.modelId === 'string'
  );
}
