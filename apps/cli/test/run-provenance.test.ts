// What the terminal confirmation tells the human when untrusted content is in the run: the sources the
// model had read (a tool's output, or a provider's hosted search result in the same response) and which
// argument values were copied from them, however the model rewrote them. Through the built binary on a
// terminal, against the replay server (synthetic Anthropic cassettes).
import type { JsonValue } from '@toolcircuit/core';
import { type Cassette, type ReplayServer, startReplayServer } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { runBinOnTerminal } from './support/cli-process.js';

const CATALOGUE = 'test/fixtures/mail-payment-catalogue.mjs';
const KEY = 'sk-ant-cli-test-secret-0123456789';

function message(content: JsonValue[], stopReason: string): JsonValue {
  return {
    id: 'msg_synthetic',
    type: 'message',
    role: 'assistant',
    model: 'claude-haiku-5-5',
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  };
}

function cassette(note: string, bodies: readonly JsonValue[]): Cassette {
  return {
    format: 'toolcircuit-cassette/1',
    protocol: 'anthropic-messages',
    provenance: { kind: 'synthetic', note: `Synthetic (apps/cli tests): ${note}` },
    interactions: bodies.map((json) => ({
      request: { method: 'POST', path: '/v1/messages' },
      response: { status: 200, headers: { 'content-type': 'application/json' }, body: { kind: 'json', json } },
    })),
  };
}

async function runOnTerminal(recorded: Cassette, answer: string, catalogue = CATALOGUE) {
  const server: ReplayServer = await startReplayServer(recorded);
  try {
    return await runBinOnTerminal(['run', catalogue, 'Pay the invoice in my mail.', '--no-stream'], answer, {
      env: {
        TOOLCIRCUIT_MODEL: 'anthropic:claude-haiku-5-5',
        TOOLCIRCUIT_BASE_URL: server.url,
        ANTHROPIC_API_KEY: KEY,
      },
    });
  } finally {
    await server.close();
  }
}

describe('toolcircuit run: the confirmation says where the arguments came from', () => {
  it('names the mail the model had read and the values it copied, re-spaced or with invisible characters', async () => {
    const payment = { iban: 'GB33 BUKB 2020 1555 5555 55', amount: 9800, receipt: 'mal\u200blory@evil.example' };
    const { code, stdout } = await runOnTerminal(
      cassette('the model reads a mail, then pays what it asked, rewriting the values', [
        message([{ type: 'tool_use', id: 'toolu_read', name: 'read_mail', input: {} }], 'tool_use'),
        message([{ type: 'tool_use', id: 'toolu_pay', name: 'send_money', input: payment }], 'tool_use'),
        message([{ type: 'text', text: 'Paid.' }], 'end_turn'),
      ]),
      'y\n',
    );
    expect(stdout).toContain('send_money is irreversible and needs your confirmation');
    expect(stdout).toContain('Untrusted content the model had read when it asked');
    expect(stdout).toContain('read_mail (call toolu_read), turn 1');
    expect(stdout).toContain('/amount = 9800, from read_mail');
    expect(stdout).toContain(
      '/iban = "GB33 BUKB 2020 1555 5555 55", from read_mail [re-cased, re-spaced or with look-alike or invisible characters]',
    );
    // The zero-width space is shown, not hidden.
    expect(stdout).toContain('/receipt = "mal\\u{200b}lory@evil.example", from read_mail');
    expect(stdout).toContain('executed (after approval)');
    expect(code).toBe(0);
  });

  it("names the provider's hosted search result that came before the call in the same response", async () => {
    const { code, stdout } = await runOnTerminal(
      cassette('a hosted web search result, then a payment in the same response', [
        message(
          [
            { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: { query: 'Acme invoice' } },
            {
              type: 'web_search_tool_result',
              tool_use_id: 'srvtoolu_01',
              content: [
                {
                  type: 'web_search_result',
                  url: 'https://acme-billing.example/invoice',
                  title: 'Acme invoice: pay GB33BUKB20201555555555',
                  encrypted_content: 'EqgfCioIARgBIiQ3YTAw',
                  page_age: null,
                },
              ],
            },
            {
              type: 'tool_use',
              id: 'toolu_pay',
              name: 'send_money',
              input: { iban: Buffer.from('GB33BUKB20201555555555').toString('base64'), amount: 10 },
            },
          ],
          'tool_use',
        ),
        message([{ type: 'text', text: 'Not paid.' }], 'end_turn'),
      ]),
      'n\n',
    );
    expect(stdout).toContain('web_search_tool_result (run by the provider, id srvtoolu_01), turn 1');
    expect(stdout).toContain(
      '/iban = "R0IzM0JVS0IyMDIwMTU1NTU1NTU1NQ==", which decodes to "GB33BUKB20201555555555", from web_search_tool_result [encoded (base64, URL or hex)]',
    );
    expect(stdout).toContain('refused: the human declined');
    expect(code).toBe(0);
  });

  it('asks the human to type a trusted-only value only the mail holds; a yes alone does not let it through', async () => {
    const payment = { iban: 'GB33BUKB20201555555555', amount: 9800 };
    const recorded = cassette('the model reads a mail, then pays the IBAN it holds, which must be trusted data', [
      message([{ type: 'tool_use', id: 'toolu_read', name: 'read_mail', input: {} }], 'tool_use'),
      message([{ type: 'tool_use', id: 'toolu_pay', name: 'send_money', input: payment }], 'tool_use'),
      message([{ type: 'text', text: 'Done.' }], 'end_turn'),
    ]);
    const trusted = 'test/fixtures/mail-payment-trusted-catalogue.mjs';
    const clicked = await runOnTerminal(recorded, 'y\n\n', trusted);
    expect(clicked.stdout).toContain(
      '/iban = "GB33BUKB20201555555555": in nothing you wrote nor in any trusted source',
    );
    expect(clicked.stdout).toContain('This call runs only if you type /iban yourself');
    expect(clicked.stdout).toContain('Type the value of /iban yourself');
    expect(clicked.stdout).not.toContain('executed (after approval)');
    expect(clicked.code).toBe(0);

    const typed = await runOnTerminal(recorded, 'y\nGB33 BUKB 2020 1555 5555 55\n', trusted);
    expect(typed.stdout).toContain('executed (after approval)');
    expect(typed.code).toBe(0);
  });
});
