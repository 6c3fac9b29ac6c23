import { ToolcircuitError } from '@toolcircuit/core/provider';

/** A catalogue file is not in any tool-list shape the loader knows (MCP, OpenAI, Anthropic, Gemini, BFCL). */
export class CatalogueFormatError extends ToolcircuitError {
  readonly kind = 'configuration' as const;
  readonly code = 'catalogue_format' as const;
  readonly source: string;

  constructor(source: string, detail: string) {
    super(`Catalogue ${source}: ${detail}`);
    this.source = source;
  }
}
