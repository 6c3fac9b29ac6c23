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
  return withMark(turn, answeringMark(answering));
}

/** The mark a turn carries (`providerMetadata.fallback`): a copy, so the turn shares nothing with the caller. */
export function answeringMark(answering: AnsweringModel): JsonObject {
  return {
    provider: answering.provider,
    modelId: answering.modelId,
    member: answering.member,
    ...(answering.fellBackFrom === undefined
      ? {}
      : { fellBackFrom: answering.fellBackFrom.map((failed) => ({ ...failed })) }),
  };
}

/** The turn with `mark` in its provider bag; a frozen mark may be shared by many turns. */
export function withMark(turn: ModelTurn, mark: JsonObject): ModelTurn {
  const bag = turn.providerMetadata;
  // The bag's slot first, then the turn: V8 (Node 20) makes `{ ...turn, providerMetadata }` a slow object when
  // the turn has no bag of its own, which cost a run on a list more than the rest of the list's work per turn.
  const marked: Omit<ModelTurn, 'providerMetadata'> & { providerMetadata: ModelTurn['providerMetadata'] } = {
    providerMetadata: undefined,
    ...turn,
  };
  // `fallback` is FALLBACK_PROVIDER, written out: a computed key made this literal slower too.
  marked.providerMetadata = bag === undefined ? { fallback: mark } : { ...bag, [FALLBACK_PROVIDER]: mark };
  return marked as ModelTurn;
}
