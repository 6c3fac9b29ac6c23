// Deferred tools on every adapter through its official SDK, over the replay server (synthetic responses):
// a run over a 600-tool catalogue declares only the search tool, then the tools its search loaded; it calls
// a found tool; a call to a tool it did not load is refused with the hint, journaled, and the hint goes back
// on the wire. The same task with all 600 tools shown is the size reference.
import { toolResultText } from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { FOUND_TOOL, NOT_LOADED_TOOL, playDeferredTask } from '../../src/search/measure-deferred-requests.js';
import { SDK_BACKENDS } from '../../src/wire/sdk-backends.js';

describe.each(SDK_BACKENDS)('$label: 600 deferred tools', (backend) => {
  it('loads only what it searched for, runs a found tool, refuses one it did not load', async () => {
    const run = await playDeferredTask(backend, 'deferred');
    expect(run.result.status).toBe('completed');
    expect(run.requests).toHaveLength(3);
    // Step 1: the search tool only.
    expect(run.declared[0]).toEqual(['tool_search']);
    // Step 2: the search tool, then what the search loaded (the found tool among them), nothing else.
    const loaded = run.declared[1] ?? [];
    expect(loaded[0]).toBe('tool_search');
    expect(loaded).toContain(FOUND_TOOL);
    expect(loaded).not.toContain(NOT_LOADED_TOOL);
    expect(loaded.length).toBeLessThanOrEqual(6);
    expect(run.declared[2]).toEqual(loaded);

    expect(run.journal.map((entry) => [entry.toolName, entry.verdict, entry.reason ?? null])).toEqual([
      ['tool_search', 'executed', null],
      [FOUND_TOOL, 'executed', null],
      [NOT_LOADED_TOOL, 'refused', 'tool_not_loaded'],
    ]);
    const reply = run.result.messages.findLast((message) => message.role === 'tool');
    const refusal = reply?.role === 'tool' ? reply.content.find((part) => part.name === NOT_LOADED_TOOL) : undefined;
    expect(refusal?.isError).toBe(true);
    expect(toolResultText(refusal?.content ?? '')).toContain('the tool search ("tool_search"');
    expect(JSON.stringify(run.requests[2]?.body)).toContain('is not loaded yet');
  }, 120_000);

  it('sends a small fraction of the bytes the same task sends with all 600 tools shown', async () => {
    const deferred = await playDeferredTask(backend, 'deferred');
    const all = await playDeferredTask(backend, 'all tools');
    expect(all.declared[0]).toHaveLength(600);
    const [first = 0, second = 0] = deferred.requests.map((request) => request.bodyBytes);
    const allFirst = all.requests[0]?.bodyBytes ?? 0;
    expect(first * 20).toBeLessThan(allFirst);
    expect(second * 5).toBeLessThan(allFirst);
  }, 120_000);
});
