import { ToolcircuitError } from '@toolcircuit/core';

/** A cassette file is missing or does not follow `toolcircuit-cassette/1`; the message names the file and field. */
export class CassetteFormatError extends ToolcircuitError {
  readonly kind = 'configuration' as const;
  readonly code = 'invalid_cassette';
  /** The cassette name or file path that failed. */
  readonly source: string;
  /** One line per problem, each starting with the JSON path of the field: `interactions[0].response.status …`. */
  readonly problems: readonly string[];

  constructor(source: string, problems: readonly string[], options?: ErrorOptions) {
    const shown = problems.slice(0, 10).join('\n  ');
    const more = problems.length > 10 ? `\n  … and ${problems.length - 10} more` : '';
    super(`cassette ${source} is not a valid toolcircuit-cassette/1:\n  ${shown}${more}`, options);
    this.source = source;
    this.problems = problems;
  }
}
