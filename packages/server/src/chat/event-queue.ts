import type { LoopStreamEvent } from '@toolcircuit/core';

/** The events of a stretch, in order, from a listener that must never block or throw into the loop. */
export class EventQueue {
  readonly #events: LoopStreamEvent[] = [];
  #wake: (() => void) | undefined;
  #resolveFirst: (() => void) | undefined;
  readonly first = new Promise<void>((resolve) => {
    this.#resolveFirst = resolve;
  });

  readonly push = (event: LoopStreamEvent): void => {
    this.#events.push(event);
    this.#resolveFirst?.();
    this.#wake?.();
  };

  async next(): Promise<LoopStreamEvent> {
    for (;;) {
      const event = this.#events.shift();
      if (event !== undefined) return event;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
      this.#wake = undefined;
    }
  }

  drain(): LoopStreamEvent[] {
    return this.#events.splice(0);
  }
}
