import type { Cost } from '../cost/turn-cost.js';
import { isoNow } from '../journal/iso-now.js';
import type { AnsweringModelNote } from '../journal/journal.js';
import type { ModelTurn } from '../messages/model-turn.js';
import type { Session } from '../session/session.js';
import { answeringModelOf } from './answering-model.js';

/**
 * The journal note saying which model of a fallback list answered this turn, and what the turn cost at its
 * price; `undefined` outside such runs.
 */
export function answeringModelNote(
  session: Session,
  runId: string,
  turn: number,
  modelTurn: ModelTurn,
  cost: Cost,
): AnsweringModelNote | undefined {
  const answering = answeringModelOf(modelTurn);
  if (answering === undefined) return undefined;
  return {
    kind: 'answering_model',
    at: isoNow(),
    runId,
    sessionId: session.id,
    humanId: session.humanId,
    turn,
    provider: answering.provider,
    modelId: answering.modelId,
    member: answering.member,
    ...(answering.fellBackFrom === undefined ? {} : { fellBackFrom: answering.fellBackFrom }),
    usd: cost.usd,
    ...(cost.usd === 'unknown' ? { why: cost.why } : {}),
  };
}
