import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { JsonObject, ToolDeclaration } from '@toolcircuit/core';

// The repository's copy of the corpus and of the BFCL questions (fixtures/, with their provenance).
const FIXTURES = fileURLToPath(new URL('../../../../fixtures/', import.meta.url));

interface CorpusTool {
  readonly name: string;
  readonly description?: string;
  readonly input_schema?: JsonObject;
}

/** Every tool of every corpus file, as the model would be shown it (schemas as the sources wrote them). */
export function corpusDeclarations(files?: readonly string[]): ToolDeclaration[] {
  const directory = `${FIXTURES}catalogues/`;
  const names =
    files ??
    readdirSync(directory)
      .filter((file) => file.endsWith('.json'))
      .sort();
  return names.flatMap((file) =>
    (JSON.parse(readFileSync(`${directory}${file}`, 'utf8')) as CorpusTool[]).map((tool) => ({
      name: tool.name,
      description: tool.description ?? '',
      inputSchema: tool.input_schema ?? { type: 'object' },
    })),
  );
}

export interface BfclQuestion {
  readonly id: string;
  readonly category: string;
  readonly question: string;
  readonly groundTruth: readonly { readonly name: string }[];
}

export function bfclQuestions(): BfclQuestion[] {
  const text = readFileSync(`${FIXTURES}bfcl/questions.json`, 'utf8');
  return (JSON.parse(text) as { questions: BfclQuestion[] }).questions;
}
