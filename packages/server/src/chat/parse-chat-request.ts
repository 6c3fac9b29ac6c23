import type { Message } from '@toolcircuit/core';
import { HttpProblem } from '../http/http-problem.js';
import type { DecisionInput } from '../runs/parse-decisions.js';
import { invalid, isObject } from '../runs/parse-start.js';
import { parseApprovalId } from './approval-id.js';

/** What a `useChat` request asks for. */
export type ChatRequest =
  /** A user message: a new run of the chat, from the conversation's text. */
  | { readonly kind: 'start'; readonly chatId: string; readonly messages: Message[] }
  /** `addToolApprovalResponse` answers: the decisions on a paused run of the chat. */
  | {
      readonly kind: 'decide';
      readonly chatId: string;
      readonly runId: string;
      readonly decisions: DecisionInput[];
    };

/**
 * `useChat`'s request body (`DefaultChatTransport`): `{ id, messages, trigger, messageId? }`, `messages` being
 * UI messages (`{ id, role, parts }`). When the last message is the user's, the chat's next run starts from
 * the conversation's text; when it is the assistant's with tool parts in state `approval-responded`, those
 * answers are the decisions on the run that asked. Tool calls, tool results and system messages are never
 * taken from the client: calls and results come from the circuit alone, and the system prompt is the server's.
 */
export function parseChatRequest(body: unknown): ChatRequest {
  if (!isObject(body)) throw invalid('the body must be useChat\'s JSON object { "id", "messages", "trigger" }.');
  const { id, messages, trigger } = body;
  if (typeof id !== 'string' || id === '') throw invalid('"id" (the chat id) must be a non-empty string.');
  if (trigger !== undefined && trigger !== 'submit-message' && trigger !== 'regenerate-message') {
    throw invalid(`"trigger" must be "submit-message" or "regenerate-message" (got ${JSON.stringify(trigger)}).`);
  }
  if (!Array.isArray(messages) || messages.length === 0) throw invalid('"messages" must be a non-empty list.');
  const ui = messages.map(uiMessage);
  const last = ui.at(-1);
  if (last?.role === 'assistant') return { kind: 'decide', chatId: id, ...decisionsOf(id, last, ui.length - 1) };
  return { kind: 'start', chatId: id, messages: conversationOf(ui) };
}

interface UiMessage {
  readonly role: 'user' | 'assistant';
  readonly parts: readonly Record<string, unknown>[];
}

function uiMessage(message: unknown, index: number): UiMessage {
  const at = `messages[${index}]`;
  if (!isObject(message)) throw invalid(`${at} is not an object.`);
  const { role, parts } = message;
  if (role === 'system') {
    throw invalid(`${at} is a system message: the system prompt is the server's, a chat sends none.`);
  }
  if (role !== 'user' && role !== 'assistant') {
    throw invalid(`${at}.role must be "user" or "assistant" (got ${JSON.stringify(role) ?? 'none'}).`);
  }
  if (!Array.isArray(parts)) throw invalid(`${at}.parts must be a list.`);
  return {
    role,
    parts: parts.map((part, at2) => {
      if (!isObject(part) || typeof part.type !== 'string') throw invalid(`${at}.parts[${at2}] has no "type".`);
      return part;
    }),
  };
}

/** The conversation's text, user and assistant turns in order; the last one must be the user's. */
function conversationOf(ui: readonly UiMessage[]): Message[] {
  const conversation: Message[] = [];
  for (const message of ui) {
    const text = message.parts
      .filter((part) => part.type === 'text' && typeof part.text === 'string')
      .map((part) => part.text as string)
      .join('');
    if (text.trim() === '') continue;
    conversation.push(
      message.role === 'user'
        ? { role: 'user', content: text }
        : { role: 'assistant', content: [{ type: 'text', text }] },
    );
  }
  if (conversation.at(-1)?.role !== 'user' || ui.at(-1)?.role !== 'user') {
    throw invalid("the last message must be the user's, with text.");
  }
  return conversation;
}

/** The approval answers of the assistant's message, all for one run of this chat. */
function decisionsOf(chatId: string, message: UiMessage, index: number): { runId: string; decisions: DecisionInput[] } {
  const answered = message.parts.filter(
    (part) =>
      (part.type === 'dynamic-tool' || String(part.type).startsWith('tool-')) && part.state === 'approval-responded',
  );
  if (answered.length === 0) {
    throw invalid(
      `messages[${index}] is the assistant's and answers no approval: send a user message, or the approval responses (addToolApprovalResponse).`,
    );
  }
  let runId: string | undefined;
  const seen = new Set<string>();
  const decisions = answered.map((part, at): DecisionInput => {
    const where = `messages[${index}]: approval ${at}`;
    const approval = part.approval;
    if (!isObject(approval) || typeof approval.id !== 'string' || typeof approval.approved !== 'boolean') {
      throw invalid(`${where} must be { "id", "approved": true | false, "reason"? }.`);
    }
    const { reason } = approval;
    if (reason !== undefined && typeof reason !== 'string') throw invalid(`${where}.reason must be a string.`);
    const ref = parseApprovalId(approval.id);
    // An approval of another chat reaches nothing here, as another human's run would not.
    if (ref.chatId !== chatId) throw new HttpProblem(404, 'run_not_found', 'there is no such run in this chat.');
    if (part.toolCallId !== undefined && part.toolCallId !== ref.callId) {
      throw invalid(
        `${where} answers call "${ref.callId}" from a tool part of call ${JSON.stringify(part.toolCallId)}.`,
      );
    }
    if (runId !== undefined && ref.runId !== runId) throw invalid('the approval responses are for different runs.');
    runId = ref.runId;
    if (seen.has(ref.callId)) throw invalid(`call "${ref.callId}" is answered twice.`);
    seen.add(ref.callId);
    return {
      callId: ref.callId,
      approved: approval.approved,
      inputDigest: ref.inputDigest,
      ...(ref.taintDigest === undefined ? {} : { taintDigest: ref.taintDigest }),
      ...(reason === undefined || reason === '' ? {} : { note: reason }),
    };
  });
  return { runId: runId as string, decisions };
}
