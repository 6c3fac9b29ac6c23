import { describe, expect, it } from 'vitest';
import {
  createCatalogue,
  defineTool,
  everySession,
  hostedTool,
  InvalidToolDefinitionError,
  type Message,
  providerTool,
  runLoop,
} from '../../src/index.js';
import { paymentWorld } from '../fixtures.js';
import { scripted, textTurn } from '../support.js';

const schema = {
  type: 'object',
  properties: { city: { type: 'string', minLength: 2 } },
  required: ['city'],
  additionalProperties: false,
} as const;

function weather(extra: Record<string, unknown>) {
  return defineTool({
    name: 'weather',
    description: 'Current weather of a city.',
    inputSchema: schema,
    right: everySession,
    run: () => 'sunny',
    ...extra,
  });
}

describe('per-tool provider features', () => {
  it('declarations carry strict, checked input examples and per-provider options', () => {
    const catalogue = createCatalogue([
      weather({
        strict: false,
        inputExamples: [{ city: 'Paris' }],
        providerOptions: { anthropic: { cache_control: { type: 'ephemeral' } } },
      }),
    ]);
    expect(catalogue.declarations[0]).toEqual({
      name: 'weather',
      description: 'Current weather of a city.',
      inputSchema: schema,
      strict: false,
      inputExamples: [{ city: 'Paris' }],
      providerOptions: { anthropic: { cache_control: { type: 'ephemeral' } } },
    });
    // Nothing added for a tool that asks for nothing: the declaration is what it always was.
    expect(Object.keys(createCatalogue([weather({})]).declarations[0] ?? {})).toEqual([
      'name',
      'description',
      'inputSchema',
    ]);
  });

  it('refuses an input example its own schema refuses, a non-boolean strict, a malformed options bag', () => {
    expect(() => createCatalogue([weather({ inputExamples: [{ city: 'P' }] })])).toThrow(
      /input example 0 does not fit/,
    );
    expect(() => createCatalogue([weather({ inputExamples: [{ town: 'Paris' }] })])).toThrow(
      InvalidToolDefinitionError,
    );
    expect(() => createCatalogue([weather({ inputExamples: { city: 'Paris' } })])).toThrow(/must be an array/);
    expect(() => createCatalogue([weather({ strict: 'yes' })])).toThrow(/`strict` must be true or false/);
    expect(() => createCatalogue([weather({ providerOptions: { anthropic: 'x' } })])).toThrow(/providerOptions/);
  });

  it('hosted tools have one neutral shape, and go to the model request with the cache hint', async () => {
    const search = hostedTool('web_search', { maxUses: 3, allowedDomains: ['example.org'] });
    expect(search).toEqual({
      type: 'hosted',
      kind: 'web_search',
      options: { maxUses: 3, allowedDomains: ['example.org'] },
    });
    expect(() => hostedTool('web_search', { maxUses: 0 })).toThrow(InvalidToolDefinitionError);
    expect(() => hostedTool('telepathy' as never)).toThrow(/no neutral hosted tool/);
    expect(() => providerTool({})).toThrow(InvalidToolDefinitionError);
    const bash = providerTool({ anthropic: { type: 'bash_20250124', name: 'bash' } });
    const { catalogue, session } = paymentWorld();
    const model = scripted([textTurn('ok')]);
    const messages: Message[] = [{ role: 'user', content: 'hi' }];
    await runLoop({ model, catalogue, session, messages, hostedTools: [search, bash], cacheTools: true });
    expect(model.requests[0]?.hostedTools).toEqual([search, bash]);
    expect(model.requests[0]?.cacheTools).toBe(true);
  });
});
