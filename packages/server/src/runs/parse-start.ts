import type { Message } from '@toolcircuit/core';
import { HttpProblem } from '../http/http-problem.js';

/**
 * The conversation a new run starts from: `{ prompt }` (one user message) or `{ messages }` of user and
 * assistant text. Tool calls, tool results and system messages are not taken from a client: results and
 * calls come from the circuit alone, and the system prompt is the server's.
 */
export function parseStart(body: unknown): Message[] {
  if (!isObject(body)) throw invalid('the body must be a JSON object with "prompt" or "messages".');
  const { prompt, messages } = body;
  if (prompt !== undefined && messages !== undefined) throw invalid('give "prompt" or "messages", not both.');
  if (typeof prompt === 'string') {
    if (prompt.trim() === '') throw invalid('"prompt" is empty.');
    return [{ role: 'user', content: prompt }];
  }
  if (prompt !== undefined) throw invalid('"prompt" must be a string.');
  if (!Array.isArray(messages) || messages.length === 0) {
    throw invalid('give "prompt" (a string) or "messages" (a non-empty list of { role, content }).');
  }
  const parsed = messages.map((message, index): Message => {
    if (!isObject(message)) throw invalid(`messages[${index}] is not an object.`);
    const { role, content } = message;
    if (role !== 'user' && role !== 'assistant') {
      throw invalid(`messages[${index}].role must be "user" or "assistant" (got ${JSON.stringify(role) ?? 'none'}).`);
    }
    if (typeof content !== 'string') throw invalid(`messages[${index}].content must be a string.`);
    return role === 'user' ? { role, content } : { role, content: [{ type: 'text', text: content }] };
  });
  if (parsed.at(-1)?.role !== 'user') throw invalid("the last message must be the user's.");
  return parsed;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function invalid(message: string): HttpProblem {
  return new HttpProblem(400, 'invalid_body', message);
}
