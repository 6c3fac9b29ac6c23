import type { CassetteProtocol } from './cassette.js';
import type { ResponseSummary } from './summarize-response.js';

/** One file of fixtures/recorded and what became of it; `cassettes/INDEX.json` lists them all. */
export interface CassetteIndexEntry {
  /** Path under fixtures/recorded, e.g. `anthropic/vercel-ai__anthropic-tool-no-args.json`. */
  readonly sourceFile: string;
  readonly sha256: string;
  /** The cassette name for {@link loadCassette}, or null when the file is not a cassette of its own. */
  readonly cassette: string | null;
  readonly protocol?: CassetteProtocol;
  readonly streaming?: boolean;
  readonly interactions?: number;
  /** One per interaction, in order. */
  readonly responses?: readonly ResponseSummary[];
  /** Set when the file cannot drive an adapter test through an official SDK, and why. */
  readonly skipReason?: string;
}

export interface CassetteIndex {
  readonly format: 'toolcircuit-cassette-index/1';
  /** Where the sources were read from, relative to the repository's shared folder. */
  readonly source: string;
  readonly entries: readonly CassetteIndexEntry[];
}
