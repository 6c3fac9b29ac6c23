import type { CassetteProtocol, Interaction } from '../cassettes/cassette.js';
import type { SourceEntry } from './source-manifest.js';

/** The four folders of fixtures/recorded; each holds one wire protocol. */
export type SourceGroup = 'anthropic' | 'gemini' | 'openai-chat' | 'openai-responses';

export const SOURCE_GROUPS: readonly SourceGroup[] = ['anthropic', 'gemini', 'openai-chat', 'openai-responses'];

export const PROTOCOL_OF_GROUP: Readonly<Record<SourceGroup, CassetteProtocol>> = {
  anthropic: 'anthropic-messages',
  gemini: 'gemini',
  'openai-chat': 'openai-chat',
  'openai-responses': 'openai-responses',
};

/** A recorded file, read and checked against its sources.json row. */
export interface SourceFile {
  readonly entry: SourceEntry;
  /** Of the bytes read; equal to entry.sha256 except for DERIVED rows, which have none. */
  readonly sha256: string;
  readonly group: SourceGroup;
  readonly protocol: CassetteProtocol;
  /** File name without the folder. */
  readonly name: string;
  readonly text: string;
  /** Another file of the folder, by name within the same group (the DERIVED decoded bodies). */
  readonly companion: (name: string) => SourceFile | undefined;
}

/** What a format converter makes of one file, before provenance is attached. */
export interface Conversion {
  readonly interactions: readonly Interaction[];
  readonly model?: string;
  /** Sentences for provenance.note: every choice the source did not dictate (paths, statuses, headers). */
  readonly notes: readonly string[];
  readonly companions?: readonly SourceFile[];
}
