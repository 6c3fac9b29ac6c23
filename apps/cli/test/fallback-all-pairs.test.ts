// One run across two backends, for every ordered pair of the five (20 pairs), each through its official SDK
// over real HTTP to a replay server: the primary answers turn 1 with a lookup and an approved irreversible
// payment, then fails turn 2 with HTTP 529; the secondary answers turn 2. Each tool ran once, the
// secondary's request is in its own API's shape with nothing only the primary can read, and the journal says
// which model answered each turn. Synthetic traffic (see playFallbackPair).
import { type FallbackPairOutcome, playFallbackPair } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { BACKENDS, type NamedBackend } from './support/all-backends.js';

const PAIRS = BACKENDS.flatMap((primary) =>
  BACKENDS.filter((secondary) => secondary !== primary).map((secondary) => ({
    name: `${primary.label} → ${secondary.label}`,
    primary,
    secondary,
  })),
);

function expectFellOver(outcome: FallbackPairOutcome, primary: NamedBackend, secondary: NamedBackend): void {
  const provider = (backend: NamedBackend) =>
    backend.createModel({ baseURL: 'http://127.0.0.1:9', modelId: 'm' }).provider;
  expect(outcome.result.status).toBe('completed');
  expect(outcome.result.text).toBe('Invoice R-1 is paid: 120.');
  expect(outcome.executions).toEqual(['consulter R-1', 'payer R-1']);
  expect(outcome.answeredBy).toEqual([
    `${provider(primary)}:0`,
    `${provider(secondary)}:1 after ${provider(primary)} 529`,
  ]);
  expect(outcome.notes).toEqual([`1 ${provider(primary)}`, `2 ${provider(secondary)}`]);
  expect(outcome.secondaryProblems).toEqual([]);
  expect(outcome.unserved).toBe(0);
  expect(outcome.mismatches).toBe(0);
}

describe('fallback inside a run, on every ordered pair of the five backends', () => {
  expect(PAIRS).toHaveLength(20);

  it.each(PAIRS)('$name', async ({ primary, secondary }) => {
    expectFellOver(await playFallbackPair({ primary, secondary }), primary, secondary);
  });
});

describe('reasoning only the primary can read back does not reach the secondary', () => {
  const byProtocol = (protocol: string) => BACKENDS.filter((backend) => backend.protocol === protocol);
  const cases = [
    ...byProtocol('anthropic-messages').flatMap((primary) =>
      BACKENDS.filter((secondary) => secondary.protocol.startsWith('openai')).map((secondary) => ({
        primary,
        secondary,
      })),
    ),
    ...byProtocol('openai-responses').flatMap((primary) =>
      [...byProtocol('gemini'), ...byProtocol('anthropic-messages')].map((secondary) => ({ primary, secondary })),
    ),
  ].map((pair) => ({ ...pair, name: `${pair.primary.label} (reasoning) → ${pair.secondary.label}` }));

  it.each(cases)('$name', async ({ primary, secondary }) => {
    const outcome = await playFallbackPair({ primary, secondary, reasoning: true });
    expectFellOver(outcome, primary, secondary);
    // The primary's reasoning is in the run (its own turn), not in what the secondary was sent.
    expect(outcome.result.turns[0]?.content[0]?.type).toBe('reasoning');
  });
});
