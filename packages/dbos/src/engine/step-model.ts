import {
  type Model,
  type ModelRequest,
  type ModelTurn,
  ProviderError,
  type ProviderErrorInit,
} from '@toolcircuit/core';
import type { DurableSteps } from './durable-steps.js';

/** What a model step records: the turn, or the error the provider gave (replayed as the same error). */
type ModelStepRecord =
  | { readonly kind: 'turn'; readonly turn: ModelTurn }
  | { readonly kind: 'provider_error'; readonly error: Omit<ProviderErrorInit, 'cause'> }
  | { readonly kind: 'error'; readonly name: string; readonly message: string };

/**
 * The model with each request as a durable step: a replayed run gets the turns (and the provider errors)
 * its first execution got, so the loop takes the same path again and meets its tool steps in the same order.
 * Streaming is not offered: a step records a whole turn.
 */
export function stepModel(model: Model, steps: DurableSteps): Model {
  return {
    provider: model.provider,
    modelId: model.modelId,
    // What the model can do stays known through the step: a context policy asks it to clear results itself.
    ...(model.clearsToolResults === undefined ? {} : { clearsToolResults: model.clearsToolResults }),
    async generate(request: ModelRequest): Promise<ModelTurn> {
      const record = await steps.run<ModelStepRecord>(`model:${model.provider}`, async () => {
        try {
          return { kind: 'turn', turn: await model.generate(request) };
        } catch (error) {
          return recordError(error);
        }
      });
      if (record.kind === 'turn') return record.turn;
      if (record.kind === 'provider_error') throw new ProviderError(record.error);
      const error = new Error(record.message);
      error.name = record.name;
      throw error;
    },
  };
}

function recordError(error: unknown): ModelStepRecord {
  if (error instanceof ProviderError) {
    return {
      kind: 'provider_error',
      error: {
        provider: error.provider,
        code: error.code,
        message: error.message,
        status: error.status,
        retryable: error.retryable,
        retryAfterMs: error.retryAfterMs,
        providerCode: error.providerCode,
        requestId: error.requestId,
      },
    };
  }
  if (error instanceof Error) return { kind: 'error', name: error.name, message: error.message };
  return { kind: 'error', name: 'Error', message: String(error) };
}
