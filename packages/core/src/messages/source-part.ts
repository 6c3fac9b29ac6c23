import type { ProviderMetadata } from './provider-metadata.js';

/** Where in a source a citation points, as the provider counts it (characters, pages or content blocks). */
export interface SourceLocation {
  readonly unit: 'char' | 'page' | 'block';
  /** First unit cited. */
  readonly start: number;
  /** One past the last unit cited (characters and blocks), or the last page cited (pages, as providers number them). */
  readonly end: number;
}

/**
 * Where a piece of the model's answer came from: a web page (a search result, a fetched URL, a grounding
 * chunk), a file (OpenAI file search, an uploaded file), or a document the request supplied (Anthropic
 * document citations). Attached to the text part it supports (`TextPart.sources`), announced on the stream by
 * a `source` event, and kept in history so an adapter can send the citation back where its provider wants it.
 */
export interface SourcePart {
  readonly type: 'source';
  readonly sourceType: 'url' | 'file' | 'document';
  /** The page's URL (Gemini grounding gives a redirect URL that leads to it). */
  readonly url?: string;
  readonly title?: string;
  /** The provider's id of the file (OpenAI `file_id`, Anthropic `file_id`). */
  readonly fileId?: string;
  readonly filename?: string;
  /** Position of the cited document among those the request supplied (Anthropic `document_index`). */
  readonly documentIndex?: number;
  /** The passage the provider quotes from the source, when it does. */
  readonly citedText?: string;
  /**
   * The span of the text part this source supports, `[start, end)` in the text's UTF-16 code units (the
   * indices `String.prototype.slice` takes); absent: the source supports the whole text part.
   */
  readonly textRange?: { readonly start: number; readonly end: number };
  /** Where in the source the cited passage is, when the provider says. */
  readonly location?: SourceLocation;
  /** The provider's own citation, kept whole for the adapter that made it (e.g. Anthropic's `encrypted_index`). */
  readonly providerMetadata?: ProviderMetadata;
}
