import type { Model } from '@toolcircuit/core';

/** Two calls of `toolName` (keys `<run id>/a` and `<run id>/b`) for the run named in the user's message, then an answer. */
export function faultModel(toolName: string): Model;
