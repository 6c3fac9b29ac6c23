import type { ClientCapabilities } from '@modelcontextprotocol/server';

/** Form-mode elicitation: declared as `form`, or as an empty object (how clients before URL mode declared it). */
export function supportsFormElicitation(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation;
  if (elicitation === undefined) return false;
  return elicitation.form !== undefined || Object.keys(elicitation).length === 0;
}
