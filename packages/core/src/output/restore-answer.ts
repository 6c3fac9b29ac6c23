import type { AssistantContentPart, TextPart } from '../messages/messages.js';
import type { ModelTurn } from '../messages/model-turn.js';
import { answerJson } from './answer-json.js';

/**
 * A final answer whose provider-side schema reshaped values (OpenAI strict sends an omitted optional as
 * `null`; a free-form value may travel as JSON text): its JSON given back in the shape of the run's own
 * schema, by the adapter's `restore` (the schema translator's), before the loop validates it. Only a turn
 * without calls whose text is JSON is touched; its text parts become one, holding the restored JSON, and
 * anything else is left for the loop to report.
 */
export function restoredAnswerTurn(turn: ModelTurn, restore: (value: unknown) => unknown): ModelTurn {
  if (turn.content.some((part) => part.type === 'tool_call')) return turn;
  const texts = turn.content.filter((part): part is TextPart => part.type === 'text');
  if (texts.length === 0) return turn;
  const json = answerJson(texts.map((part) => part.text ?? '').join(''));
  if (!json.ok) return turn;
  const restored = JSON.stringify(restore(json.value));
  const first = texts[0] as TextPart;
  if (texts.length === 1 && first.text === restored) return turn;
  const part: TextPart =
    first.providerMetadata === undefined
      ? { type: 'text', text: restored }
      : { type: 'text', text: restored, providerMetadata: first.providerMetadata };
  const content: AssistantContentPart[] = [];
  for (const item of turn.content) {
    if (item === first) content.push(part);
    else if (item.type !== 'text') content.push(item);
  }
  return { ...turn, content };
}
