import type { AssistantMessage, Message } from '../messages/messages.js';
import type { Model } from '../messages/model.js';
import { answeringModelOf } from './answering-model.js';
import type { FallbackPosition } from './fallback-policy.js';

const AT_PRIMARY: FallbackPosition = Object.freeze({ current: 0, turnsOnCurrent: 0 });

/**
 * Where the run stands, from the answering-model marks of its assistant messages (the last one first): no
 * in-memory state, so a run continued, resumed or recovered by another worker picks up where it was. A
 * mark names its model by provider and id; a list that no longer holds that model starts at the primary.
 * `known` keeps, per assistant message, where the run stood at it (a message's history never changes).
 */
export function fallbackPosition(
  messages: readonly Message[],
  models: readonly Model[],
  known?: WeakMap<Message, FallbackPosition>,
): FallbackPosition {
  let current: number | undefined;
  let turnsOnCurrent = 0;
  let newest: AssistantMessage | undefined;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role !== 'assistant') continue;
    // Where the run stood at an assistant message already read (the last request's): the walk stops there,
    // so a run that never falls over does not read its whole history again each turn.
    const there = known?.get(message);
    if (there !== undefined) {
      if (current === undefined) ({ current, turnsOnCurrent } = there);
      else if (there.current === current) turnsOnCurrent += there.turnsOnCurrent;
      break;
    }
    newest ??= message;
    const mark = answeringModelOf(message);
    if (mark === undefined) break;
    const member = memberOf(mark, models);
    if (current === undefined) current = member;
    else if (member !== current) break;
    turnsOnCurrent += 1;
  }
  if (current === undefined) return AT_PRIMARY;
  const position = { current, turnsOnCurrent };
  if (newest !== undefined && answeringModelOf(newest) !== undefined) known?.set(newest, position);
  return position;
}

/**
 * Which model answered the run's last turn (0: the primary, also before any turn), from the newest assistant
 * message alone: what a list without a `beforeTurn` policy needs, which is not how long it has been there.
 */
export function currentMember(messages: readonly Message[], models: readonly Model[]): number {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role !== 'assistant') continue;
    const mark = answeringModelOf(message);
    return mark === undefined ? 0 : memberOf(mark, models);
  }
  return 0;
}

function memberOf(mark: { provider: string; modelId: string; member: number }, models: readonly Model[]): number {
  const same = (model: Model | undefined): boolean =>
    model !== undefined && model.provider === mark.provider && model.modelId === mark.modelId;
  if (same(models[mark.member])) return mark.member;
  const found = models.findIndex(same);
  return Math.max(found, 0);
}
