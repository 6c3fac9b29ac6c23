import { isPromiseLike } from '../async/eventually.js';
import { OutputValidationError } from '../errors/output-validation-error.js';
import type { Message } from '../messages/messages.js';
import type { ModelTurn } from '../messages/model-turn.js';
import { answerJson } from './answer-json.js';
import { correctionMessage, isCorrection } from './output-correction.js';
import type { OutputOptions, OutputRefusal } from './output-options.js';
import { runOutputOf } from './run-output.js';

/** How a run that asked for a structured answer ended: the validated answer, or the model's refusal. */
export type RunAnswer = { readonly output: unknown } | { readonly refusal: OutputRefusal };

/** What of the loop's state settling an answer reads and writes. */
export interface AnswerState {
  readonly runId: string;
  readonly messages: Message[];
  answer?: RunAnswer;
}

/**
 * The model answered without calls, in a run that asks for a structured answer. A refusal (the model's, or
 * the provider's filter) is recorded as such; otherwise the text is read as JSON and checked with the
 * tools' validator. A valid answer is recorded (the validator's value: a Standard Schema's transforms
 * apply); a refused one gets ONE corrective message, appended to the conversation, and `'correct'` tells the
 * loop to ask again. An answer to that correction that still fails throws {@link OutputValidationError}
 * with its raw text, as does a failing answer when no turn is left for the correction (`canCorrect` false).
 * The correction is recognised in the conversation itself, so a run resumed or continued elsewhere
 * corrects once too.
 */
export async function settleAnswer(
  state: AnswerState,
  output: OutputOptions,
  modelTurn: ModelTurn,
  canCorrect: boolean,
): Promise<'answered' | 'correct'> {
  const text = answerText(modelTurn);
  const stop = modelTurn.stopReason.unified;
  if (stop === 'refusal' || stop === 'content_filter') {
    state.answer = { refusal: { reason: stop, text } };
    return 'answered';
  }
  const json = answerJson(text);
  let problem: { issues: readonly { path: readonly (string | number)[]; message: string }[] } | { parseError: string };
  if (json.ok) {
    const checking = runOutputOf(output).validate(json.value);
    const verdict = isPromiseLike(checking) ? await checking : checking;
    if (verdict.ok) {
      state.answer = { output: verdict.value };
      return 'answered';
    }
    problem = { issues: verdict.issues };
  } else {
    problem = { parseError: json.error };
  }
  // The message before this answer is the one it answered: the correction already spent, nothing more is asked.
  if (!canCorrect || isCorrection(state.messages.at(-2))) {
    throw new OutputValidationError({
      runId: state.runId,
      rawText: text,
      issues: 'issues' in problem ? problem.issues : [],
      parseError: 'parseError' in problem ? problem.parseError : undefined,
    });
  }
  state.messages.push(correctionMessage(problem));
  return 'correct';
}

/** The answer's text parts, joined (a careless model's missing text counts as ''). */
function answerText(turn: ModelTurn): string {
  let text = '';
  for (const part of turn.content) if (part.type === 'text' && part.text != null) text += part.text;
  return text;
}
