import type { Message } from '../messages/messages.js';
import type { OutputFormat, ToolChoice } from '../messages/model.js';
import { isCorrection } from './output-correction.js';
import type { OutputOptions } from './output-options.js';
import { runOutputOf } from './run-output.js';

/**
 * What a run with `output` adds to each model request: the answer's format, and, for the request that
 * carries the corrective message, tool choice `none` ("answer now"): the correction is a turn for the
 * answer, not for more calls.
 */
export function outputRequest(
  output: OutputOptions,
  messages: readonly Message[],
): { readonly output: OutputFormat; readonly toolChoice?: ToolChoice } {
  const format = runOutputOf(output).format;
  return isCorrection(messages.at(-1)) ? { output: format, toolChoice: 'none' } : { output: format };
}
