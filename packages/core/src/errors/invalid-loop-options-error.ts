import { ToolcircuitError } from './toolcircuit-error.js';

/** `runLoop` / `resumeLoop` was called with options that cannot work (a bound below 1, a non-integer turn limit…). */
export class InvalidLoopOptionsError extends ToolcircuitError {
  readonly kind = 'configuration' as const;
  readonly code = 'invalid_loop_options' as const;
  readonly option: string;

  constructor(option: string, problemAndFix: string) {
    super(`Loop option "${option}" is invalid: ${problemAndFix}`);
    this.option = option;
  }
}
