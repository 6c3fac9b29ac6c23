/**
 * Phrases that tell a model when NOT to pick a tool: "Do not use for …", "Not for …", "Only …", "… instead",
 * "unless …". English first (descriptions are mostly English), plus the French forms of the seed examples.
 */
const OUT_OF_SCOPE =
  /\b(do not|don't|does not|never|not for|not to be used|not intended|only|instead|rather than|except|unless|avoid|should not|must not|cannot be used)\b|\b(ne pas|n'utilise[sz]? pas|uniquement|seulement|pas pour|sauf)\b/i;

export function namesOutOfScope(description: string): boolean {
  return OUT_OF_SCOPE.test(description);
}
