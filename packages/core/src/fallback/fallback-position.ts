import type { Message } from '../messages/messages.js';
import type { Model } from '../messages/model.js';
import { answeringModelOf } from './answering-model.js';
import type { FallbackPosition } from './fallback-policy.js';

const AT_PRIMARY: FallbackPosition = Object.freeze({ current: 0, turnsOnCurrent: 0 });

/**
 * Where the run stands, from the answering-model marks of its assistant messages (the last one first): no
 * in-memory state, so a run continued, resumed or recovered by another worker picks up where it was. A
 * mark names its model by provider and id; a list that no longer holds that model starts at the primary.
 */
export function fallbackPosition(messages: readonly Message[], models: readonly Model[]): FallbackPosition {
  let current: number | undefined;
  let turnsOnCurrent = 0;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role !== 'assistant') continue;
    const mark = answeringModelOf(message);
    if (mark === undefined) break;
    const member = memberOf(mark, models);
    if (current === undefined) current = member;
    else if (member !== current) break;
    turnsOnCurrent += 1;
  }
  return current === undefined ? AT_PRIMARY : { current, turnsOnCurrent };
}

function memberOf(mark: { provider: string; modelId: string; member: number }, models: readonly Model[]): number {
  const same = (model: Model | undefined): boolean =>
    model !== undefined && model.provider === mark.provider && model.modelId === mark.modelId;
  if (same(models[mark.member])) return mark.member;
  const found = models.findIndex(same);
  return Math.max(found, 0);
}
