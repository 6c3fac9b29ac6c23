import { ToolcircuitError } from './toolcircuit-error.js';

/** One way the answer fails the schema: where (keys from the root; empty for the answer itself) and what. */
export interface OutputIssue {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/**
 * The model's final answer did not match the run's output schema, even after the one corrective turn that
 * showed it what was wrong. Nothing was cast: `rawText` is exactly what the model answered last, `issues`
 * why it was refused, `parseError` why it was not JSON when it was not.
 */
export class OutputValidationError extends ToolcircuitError {
  readonly kind = 'provider' as const;
  readonly code = 'output_validation_failed' as const;
  readonly runId: string;
  /** The text of the last answer, as the model wrote it. */
  readonly rawText: string;
  /** Where and how the answer fails the schema; empty when it did not parse as JSON. */
  readonly issues: readonly OutputIssue[];
  /** Why the text is not JSON, when it is not. */
  readonly parseError: string | undefined;

  constructor(init: {
    readonly runId: string;
    readonly rawText: string;
    readonly issues: readonly OutputIssue[];
    readonly parseError?: string | undefined;
  }) {
    const why =
      init.parseError === undefined
        ? init.issues
            .map((issue) => `${issue.path.length === 0 ? '(root)' : issue.path.join('.')} ${issue.message}`)
            .join('; ')
        : `it is not JSON (${init.parseError})`;
    super(
      `The model's final answer does not match the output schema after one corrective turn: ${why}. ` +
        'Its text is in `rawText`; describe the fields better, simplify the schema, or use a more capable model.',
    );
    this.runId = init.runId;
    this.rawText = init.rawText;
    this.issues = init.issues;
    this.parseError = init.parseError;
  }
}
