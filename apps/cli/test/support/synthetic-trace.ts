import type { TraceRecord } from '@toolcircuit/otel';

/**
 * A SYNTHETIC trace (generated here, not recorded): one run of `turns` turns, each a model call then one to
 * four calls, some overlapping (parallel), with refusals, failures, and every 50th turn a pause approved by
 * the human and a run after it. Deterministic, for the viewer's size test.
 */
export function syntheticTrace(turns: number): TraceRecord[] {
  const runId = 'synthetic-run';
  const records: TraceRecord[] = [
    { type: 'trace', version: 1, producer: 'synthetic test generator', at: 0, title: `SYNTHETIC ${turns}-turn trace` },
    {
      type: 'invocation',
      runId,
      kind: 'start',
      at: 1_000,
      label: 'synthetic',
      provider: 'scripted',
      model: 'synthetic-model',
      sessionId: 'synthetic-session',
      streaming: false,
      tools: [{ name: 'lookup', description: 'synthetic', right: 'read', irreversible: false }],
    },
  ];
  let clock = 1_000;
  for (let turn = 1; turn <= turns; turn += 1) {
    const callCount = 1 + (turn % 4);
    const modelStart = clock;
    clock += 300 + (turn % 7) * 10;
    records.push({
      type: 'model-call',
      runId,
      turn,
      start: modelStart,
      end: clock,
      provider: 'scripted',
      requestModel: 'synthetic-model',
      stopReason: { unified: 'tool_calls', raw: 'tool_use' },
      usage: { inputTokens: 1000 + turn, outputTokens: 20 + (turn % 9), totalTokens: 1020 + turn + (turn % 9) },
      calls: Array.from({ length: callCount }, (_, index) => ({ id: `c${turn}-${index}`, name: 'lookup' })),
    });
    for (let index = 0; index < callCount; index += 1) {
      // Even calls start together (parallel lanes), odd ones after.
      const start = clock + (index % 2) * 40;
      const kind = (turn * 7 + index) % 10;
      const verdict = kind === 0 ? 'refused' : kind === 1 ? 'failed' : 'executed';
      records.push({
        type: 'call',
        runId,
        turn,
        index,
        callId: `c${turn}-${index}`,
        tool: index === 3 ? 'close' : 'lookup',
        start,
        end: start + 35,
        verdict,
        ...(verdict === 'refused' ? { reason: turn % 2 === 0 ? 'invalid_input' : 'missing_right' } : {}),
        isError: verdict !== 'executed',
        right: 'read',
        irreversible: false,
        inputDigest: 'f'.repeat(64),
        retries: 0,
        resumed: false,
        provenance: { turn, provider: 'scripted' },
        input: { numero: `A-${String(turn).padStart(4, '0')}` },
        ...(verdict === 'failed' ? { message: 'synthetic failure' } : {}),
      });
    }
    clock += 120;
  }
  records.push({ type: 'invocation-end', runId, at: clock, status: 'completed', turns });
  return records;
}

/**
 * A SYNTHETIC one-turn trace (generated here, not recorded) whose answer cites three sources (two of them one
 * page) and holds a provider part the adapter kept without understanding it.
 */
export function sourcedTrace(): TraceRecord[] {
  const runId = 'synthetic-sources';
  return [
    { type: 'trace', version: 1, producer: 'synthetic test generator', at: 0, title: 'SYNTHETIC sources trace' },
    {
      type: 'invocation',
      runId,
      kind: 'start',
      at: 1_000,
      provider: 'anthropic',
      model: 'synthetic-model',
      sessionId: 'synthetic-session',
      streaming: false,
      tools: [],
    },
    {
      type: 'model-call',
      runId,
      turn: 1,
      start: 1_000,
      end: 1_800,
      provider: 'anthropic',
      requestModel: 'synthetic-model',
      stopReason: { unified: 'end_turn', raw: 'end_turn' },
      calls: [],
      text: 'Sunny, 21 °C.',
      sources: [
        { sourceType: 'url', url: 'https://example.org/paris', title: 'Weather in Paris' },
        { sourceType: 'url', url: 'https://example.org/paris', title: 'Weather in Paris', citedText: 'Sunny' },
        { sourceType: 'file', fileId: 'file-1', filename: '<b>report.pdf</b>' },
      ],
      providerParts: [{ provider: 'anthropic', kind: 'hologram' }],
    },
    { type: 'invocation-end', runId, at: 1_900, status: 'completed', turns: 1 },
  ];
}
