import { afterEach, expect } from 'vitest';

// Loaded before every test file (vitest.config.ts `setupFiles`). Some warnings mean the code under test does
// something a user would see and should not: an SDK's end-of-life warning for a model id we print or send, or
// ajv ignoring a format a real schema uses. They fail the test that caused them instead of scrolling past.
const NOISE = [/is deprecated and will reach end-of-life/, /unknown format "[^"]*" ignored/];

export function isNoise(text: string): boolean {
  return NOISE.some((pattern) => pattern.test(text));
}

const caught: string[] = [];
for (const level of ['warn', 'error', 'log'] as const) {
  const original = console[level].bind(console);
  console[level] = (...args: unknown[]) => {
    const text = args.map((arg) => (typeof arg === 'string' ? arg : String(arg))).join(' ');
    if (isNoise(text)) caught.push(text);
    original(...args);
  };
}

afterEach(() => {
  const seen = caught.splice(0);
  expect(seen, 'warnings a user would see (deprecated model id, unregistered format)').toEqual([]);
});
