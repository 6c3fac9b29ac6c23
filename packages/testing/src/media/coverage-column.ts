import { RESULT_PART_KINDS } from '@toolcircuit/core';

/**
 * One provider's column of a Markdown coverage table (as `renderResultCoverageTable` writes it), in
 * `RESULT_PART_KINDS` order; `missing` where a row or the column is absent. For tests that pin a README's
 * table to the data the converters dispatch on.
 */
export function coverageColumnOf(markdown: string, provider: string): string[] {
  const lines = markdown.split('\n').filter((line) => line.startsWith('| '));
  const cells = (line: string | undefined): string[] => line?.split('|').map((cell) => cell.trim()) ?? [];
  const column = cells(lines.find((line) => line.startsWith('| part |'))).indexOf(provider);
  return RESULT_PART_KINDS.map((kind) => {
    const value = column < 0 ? undefined : cells(lines.find((line) => line.startsWith(`| ${kind} |`)))[column];
    return value === undefined || value === '' ? 'missing' : value;
  });
}
