import { issueLines, type ValidationIssue } from '../catalogue/render-validation-errors.js';
import type { Message, UserMessage } from '../messages/messages.js';

/** Marks the circuit's own corrective message, so a run continued elsewhere still knows it was sent. */
const CORRECTION_MARK = 'outputCorrection';

/**
 * The one corrective message a refused answer gets: what was wrong, in the words the tools' refusals use,
 * and what to do. It is the circuit's own text; nothing of the answer is echoed beyond the validator's short
 * excerpts.
 */
export function correctionMessage(
  problem: { readonly issues: readonly ValidationIssue[] } | { readonly parseError: string },
): UserMessage {
  const what =
    'parseError' in problem
      ? `Your final answer is not valid JSON (${problem.parseError}).`
      : `Your final answer does not match the required output schema:\n${issueLines(problem.issues, 'the answer')
          .map((line) => `- ${line}`)
          .join('\n')}`;
  return {
    role: 'user',
    content: [
      {
        type: 'text',
        text: `${what}\nAnswer again now, without calling tools, with only the corrected JSON object, matching the schema exactly.`,
        providerMetadata: { toolcircuit: { [CORRECTION_MARK]: true } },
      },
    ],
  };
}

/** Whether a message is the circuit's corrective message (see {@link correctionMessage}). */
export function isCorrection(message: Message | undefined): boolean {
  if (message?.role !== 'user' || typeof message.content === 'string') return false;
  return message.content.some((part) => part.providerMetadata?.['toolcircuit']?.[CORRECTION_MARK] === true);
}
