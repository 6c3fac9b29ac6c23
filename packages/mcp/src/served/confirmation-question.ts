/** What the human is asked about an irreversible served call, in either era: the tool and its exact arguments. */
export function confirmationQuestion(toolName: string, input: unknown): string {
  return `Confirm the irreversible call "${toolName}" with exactly these arguments:\n${JSON.stringify(input, null, 2)}`;
}
