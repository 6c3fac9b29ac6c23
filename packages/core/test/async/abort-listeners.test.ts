import { describe, expect, it } from 'vitest';
import { listenForAbort } from '../../src/async/abort-listeners.js';

describe('listenForAbort', () => {
  it('calls every listener still listening once, through one listener on the signal', () => {
    const controller = new AbortController();
    let added = 0;
    const add = controller.signal.addEventListener.bind(controller.signal);
    controller.signal.addEventListener = ((...args: Parameters<typeof add>) => {
      added += 1;
      add(...args);
    }) as typeof add;
    const heard: string[] = [];
    const stops = ['a', 'b', 'c'].map((name) => listenForAbort(controller.signal, () => heard.push(name)));
    stops[1]?.();
    controller.abort();
    controller.abort();
    expect(heard).toEqual(['a', 'c']);
    expect(added).toBe(1);
  });

  it('keeps signals apart', () => {
    const first = new AbortController();
    const second = new AbortController();
    const heard: string[] = [];
    listenForAbort(first.signal, () => heard.push('first'));
    listenForAbort(second.signal, () => heard.push('second'));
    second.abort();
    expect(heard).toEqual(['second']);
  });
});
