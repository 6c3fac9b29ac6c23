// The world of the context-policy tests: a tool that returns a large page (untrusted, as any tool that does
// not say otherwise), a trusted one, an irreversible payment, and helpers that read what a request carried.
import {
  createCatalogue,
  createSession,
  defineTool,
  everySession,
  type Message,
  type ModelRequest,
  type ToolMessage,
  type ToolResultPart,
  toolCallsOf,
} from '../../src/index.js';

const WORDS = ['ledger', 'invoice', 'harbour', 'quartz', 'meadow', 'signal', 'copper', 'orbit', 'lantern', 'vessel'];

/** Deterministic prose of `chars` characters (words from a small list, picked by a linear congruence). */
export function page(seed: number, chars: number): string {
  let text = '';
  let state = seed + 1;
  while (text.length < chars) {
    state = (state * 1103515245 + 12345) % 2147483648;
    text += `${WORDS[state % WORDS.length]} `;
  }
  return text.slice(0, chars);
}

/**
 * `planted` puts a text at the head of the pages it names (an attacker's IBAN on page 1…): the page keeps its
 * length, so it is cleared like any other.
 */
export function contextWorld(pageChars = 20_000, planted: Readonly<Record<number, string>> = {}) {
  const paid: unknown[] = [];
  const open = { type: 'object', additionalProperties: true } as const;
  const catalogue = createCatalogue([
    defineTool({
      name: 'read_page',
      description: 'Reads a page of the archive.',
      inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
      right: everySession,
      run: ({ n }) => {
        const head = planted[n] ?? '';
        return head + page(n, pageChars - head.length);
      },
    }),
    defineTool({
      name: 'clock',
      description: 'The time.',
      inputSchema: open,
      right: everySession,
      outputTrust: 'trusted',
      run: () => `2026-12-01T10:00:00Z ${page(7, pageChars)}`,
    }),
    defineTool({
      name: 'pay',
      description: 'Pays. Irreversible.',
      inputSchema: open,
      right: everySession,
      irreversible: true,
      run: (input) => {
        paid.push(input);
        return 'paid';
      },
    }),
  ]);
  const session = createSession({ id: 'ctx', humanId: 'h' });
  return { catalogue, session, paid };
}

/** The results a request carried, in order. */
export function resultsOf(messages: readonly Message[]): ToolResultPart[] {
  return messages.flatMap((message) => (message.role === 'tool' ? message.content : []));
}

export function isPlaceholder(part: ToolResultPart): boolean {
  return typeof part.content === 'string' && part.content.startsWith('[Result cleared to fit the context window');
}

/**
 * What is wrong with a request's pairing (empty: nothing): every call is answered by exactly one result, in
 * the message right after its own, in call order, and no result answers nothing.
 */
export function pairingProblems(request: ModelRequest): string[] {
  const problems: string[] = [];
  const { messages } = request;
  for (const [index, message] of messages.entries()) {
    if (message.role === 'tool') {
      const before = messages[index - 1];
      if (before?.role !== 'assistant' || toolCallsOf(before.content).length === 0)
        problems.push(`tool message ${index} follows no calls`);
      continue;
    }
    if (message.role !== 'assistant') continue;
    const calls = toolCallsOf(message.content);
    if (calls.length === 0) continue;
    const reply = messages[index + 1] as ToolMessage | undefined;
    // The last turn's calls are answered in the request after the reply only when they are pending.
    if (reply === undefined) {
      problems.push(`calls of message ${index} have no reply`);
      continue;
    }
    if (reply.role !== 'tool') {
      problems.push(`message ${index + 1} is not the reply to the calls of message ${index}`);
      continue;
    }
    const ids = reply.content.map((part) => part.callId);
    if (JSON.stringify(ids) !== JSON.stringify(calls.map((call) => call.id)))
      problems.push(`reply ${index + 1} answers ${ids.join(',')} for ${calls.map((call) => call.id).join(',')}`);
  }
  return problems;
}
