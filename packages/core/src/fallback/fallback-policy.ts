import type { ProviderError } from '../errors/provider-error.js';

/** Where a run stands on its fallback list when a turn starts, read from the turns it holds. */
export interface FallbackPosition {
  /** The model that answered the last turn (0: the primary, also when no turn was answered yet). */
  readonly current: number;
  /** How many turns in a row, up to the last, that model answered. */
  readonly turnsOnCurrent: number;
}

/** A model of the list failed this turn with a retryable error, and another is left to ask. */
export interface FallbackFailure {
  readonly error: ProviderError;
  /** The one that failed, and the one that would be asked next (places in the list). */
  readonly failed: number;
  readonly next: number;
}

/**
 * What a fallback list does besides falling over to the next model on a retryable `ProviderError`.
 * Both hooks are plain functions of their argument, so a run continued or resumed from a stored state
 * decides as the first one would have.
 */
export interface FallbackPolicy {
  /**
   * Which model asks first this turn: `'stay'` (the default) keeps the one that answered the last turn;
   * `'primary'` goes back to the first of the list. See {@link backToPrimaryAfter}.
   */
  readonly beforeTurn?: (position: FallbackPosition) => 'stay' | 'primary';
  /**
   * `'next'` (the default) asks the next model; `'give_up'` throws the error, which leaves the run
   * interrupted (it can be continued later with `continueLoop`).
   */
  readonly onFailure?: (failure: FallbackFailure) => 'next' | 'give_up';
}

/** Goes back to the primary once another model has answered `turns` turns in a row. */
export function backToPrimaryAfter(turns: number): FallbackPolicy {
  return {
    beforeTurn: ({ current, turnsOnCurrent }) => (current !== 0 && turnsOnCurrent >= turns ? 'primary' : 'stay'),
  };
}
