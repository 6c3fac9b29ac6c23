import type { ToolDeclaration, ToolSearchHit, ToolSearchIndex } from '@toolcircuit/core';

/**
 * The baseline: rank tools by how many of the query's words appear in the tool's name (split on `_`, `.`,
 * `-` and camelCase, lower-cased), ties in catalogue order. What a model gets from a plain name filter.
 */
export function createNameMatchIndex(declarations: readonly ToolDeclaration[]): ToolSearchIndex {
  const names = declarations.map((declaration) => ({
    name: declaration.name,
    words: new Set(words(declaration.name)),
  }));
  return {
    size: names.length,
    namespaces: [],
    search(query, limit = 5) {
      const wanted = new Set(words(query).filter((word) => word.length > 2));
      const hits: ToolSearchHit[] = [];
      for (const { name, words: nameWords } of names) {
        let score = 0;
        for (const word of wanted) if (nameWords.has(word)) score += 1;
        if (score > 0) hits.push({ name, score });
      }
      // A stable sort: equal scores keep catalogue order.
      return hits.sort((left, right) => right.score - left.score).slice(0, limit);
    },
  };
}

function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}
