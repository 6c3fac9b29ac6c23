import { describe, expect, it } from 'vitest';
import { messageTokens, textTokens, toolsTokens } from '../../src/context/estimate-tokens.js';
import { type AssistantMessage, createCatalogue, defineTool, everySession, type ToolMessage } from '../../src/index.js';

describe('the cheap token estimate', () => {
  it('counts ASCII 4 characters a token, and every other character a token where they are common', () => {
    expect(textTokens('')).toBe(0);
    expect(textTokens('a'.repeat(4_000))).toBe(1_000);
    // Chinese prose: a token a character, as tokenizers count it (not a quarter of one).
    const chinese = '上下文窗口的预算'.repeat(500);
    expect(textTokens(chinese)).toBe(4_000);
    // Half Cyrillic, half spaces and digits: each Cyrillic letter a token, the rest 4 a token.
    const mixed = 'д1'.repeat(2_000);
    expect(textTokens(mixed)).toBe(2_000 + 500);
    // A few accented letters in English: too few to matter, counted as the ASCII around them.
    const english = `${'The quick brown fox jumps over the lazy dog. '.repeat(100)}café`;
    expect(textTokens(english)).toBeGreaterThanOrEqual(Math.ceil(english.length / 4));
    expect(textTokens(english)).toBeLessThanOrEqual(Math.ceil(english.length / 4) + 4);
  });

  it('counts a tool result, its call and the tool list with their framing, media at a flat rate', () => {
    const reply: ToolMessage = {
      role: 'tool',
      content: [
        { type: 'tool_result', callId: 'c1', name: 't', content: 'x'.repeat(400), isError: false },
        {
          type: 'tool_result',
          callId: 'c2',
          name: 't',
          content: [
            { type: 'json', value: { rows: [1, 2, 3] } },
            { type: 'image', mediaType: 'image/png', data: new Uint8Array(10) },
          ],
          isError: false,
        },
      ],
    };
    // 4 for the message, 8 + 100 for the first result, 8 + 4 (its 16 characters of JSON) + 1,600 (the image) for the second.
    expect(messageTokens(reply)).toBe(4 + 108 + 8 + 4 + 1_600);
    const catalogue = createCatalogue([
      defineTool({
        name: 'look_up',
        description: 'd'.repeat(40),
        inputSchema: { type: 'object' },
        right: everySession,
        run: () => '',
      }),
    ]);
    expect(toolsTokens(catalogue.declarations)).toBe(8 + 2 + 10 + 5);
  });

  it("counts a provider's item the adapter kept whole, which goes back whole", () => {
    const data = { type: 'compaction', id: 'cmp_1', encrypted_content: 'e'.repeat(4_000) };
    const turn: AssistantMessage = {
      role: 'assistant',
      content: [
        { type: 'provider', provider: 'openai', kind: 'compaction', data },
        { type: 'text', text: 'x'.repeat(40) },
      ],
    };
    // 4 for the message, 8 + its JSON at 4 characters a token for the item, 10 for the text.
    expect(messageTokens(turn)).toBe(4 + 8 + Math.ceil(JSON.stringify(data).length / 4) + 10);
  });
});
