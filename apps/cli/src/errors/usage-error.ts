/**
 * The command line or an input file is wrong (exit 2). `hint` says what to do instead, on its own line,
 * so the first line stays a short statement of what was wrong.
 */
export class UsageError extends Error {
  readonly hint: string | undefined;

  constructor(message: string, hint?: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'UsageError';
    this.hint = hint;
  }
}
