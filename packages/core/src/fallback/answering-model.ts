import type { JsonObject } from '../json/json.js';
import type { AssistantMessage } from '../messages/messages.js';
import type { ModelTurn } from '../messages/model-turn.js';

/** The key of a fallback model's entry in provider bags (its `provider`), where each turn says who answered it. */
export const FALLBACK_PROVIDER = 'fallback';

/** A model of the list that failed a turn before another answered it. */
export interface FailedModel {
  readonly provider: string;
  readonly modelId: string;
  /** Its place in the list (0: the primary). */
  readonly member: number;
  /** The `ProviderError` code (`overloaded`, `rate_limited`…), and the HTTP status when there was one. */
  readonly code: string;
  readonly status?: number;
}

/**
 * Which model of a fallback list answered a turn, kept in the turn's (and its assistant message's)
 * `providerMetadata.fallback`: in the result, in the journal (a note per turn), and in any stored state, so a
 * run continued or resumed later knows which model it was on.
 */
export interface AnsweringModel {
  readonly provider: string;
  readonly modelId: string;
  /** Its place in the list (0: the primary). */
  readonly member: number;
  /** The models that failed this turn first, in the order they were asked; absent when the first one answered. */
  readonly fellBackFrom?: readonly FailedModel[];
}

/** Which model of a fallback list answered this turn or message; `undefined` when no fallback list was used. */
export function answeringModelOf(turn: ModelTurn | AssistantMessage): AnsweringModel | undefined {
  const mark = turn.providerMetadata?.[FALLBACK_PROVIDER];
  if (mark === undefined) return undefined;
  const { provider, modelId, member } = mark;
  if (typeof provider !== 'string' || typeof modelId !== 'string' || typeof member !== 'number') return undefined;
  return mark as unknown as AnsweringModel;
}

/** The turn with who answered it in its provider bag (the other providers' entries untouched). */
export function withAnsweringModel(turn: ModelTurn, answering: AnsweringModel): ModelTurn {
  const mark: JsonObject = {
    provider: answering.provider,
    modelId: answering.modelId,
    member: answering.member,
    ...(answering.fellBackFrom === undefined
      ? {}
      : { fellBackFrom: answering.fellBackFrom.map((failed) => ({ ...failed })) }),
  };
  return { ...turn, providerMetadata: { ...turn.providerMetadata, [FALLBACK_PROVIDER]: mark } };
}
