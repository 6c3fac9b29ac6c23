import type { Message } from '@toolcircuit/core';
import type { ApprovalView, RunView } from '@toolcircuit/server';
import { ApiError, type DecisionBody, RunApi } from './api.js';
import { renderApproval } from './render-approval.js';
import { renderMessages } from './render-messages.js';

/** How often the page asks for the run and the approvals (a stream route may replace this later). */
const POLL_MS = 1000;
const TOKEN_KEY = 'toolcircuit-inbox-token';
const RUN_KEY = 'toolcircuit-inbox-run';
type ChatMessage = { role: 'user' | 'assistant'; content: string };
const FINISHED = new Set(['completed', 'max_turns', 'aborted', 'interrupted', 'failed']);

const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const loginForm = byId<HTMLFormElement>('login');
const app = byId<HTMLElement>('app');
const who = byId<HTMLElement>('who');
const statusLine = byId<HTMLElement>('run-status');
const messageList = byId<HTMLOListElement>('messages');
const chat = byId<HTMLFormElement>('chat');
const prompt = byId<HTMLTextAreaElement>('prompt');
const send = byId<HTMLButtonElement>('send');
const notice = byId<HTMLElement>('notice');
const approvalList = byId<HTMLUListElement>('approvals');
const inboxEmpty = byId<HTMLElement>('inbox-empty');

let api: RunApi | undefined;
let run: RunView | undefined;
let starting = false;
/** Decisions taken on some calls of a run with several pending ones: sent together once all are taken. */
const choices = new Map<string, Map<string, DecisionBody>>();
let shownApprovals = '';
let polling = false;

// A login link (`/#token=…`, as `toolcircuit serve` prints it) is taken once and removed from the address bar.
const fromLink = /(?:^|&)token=([^&]+)/.exec(location.hash.slice(1))?.[1];
if (fromLink !== undefined) {
  sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(fromLink));
  history.replaceState(null, '', location.pathname + location.search);
}
signIn(sessionStorage.getItem(TOKEN_KEY));

loginForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const token = byId<HTMLInputElement>('token').value.trim();
  sessionStorage.setItem(TOKEN_KEY, token);
  signIn(token);
});

chat.addEventListener('submit', (event) => {
  event.preventDefault();
  const text = prompt.value.trim();
  if (text === '' || api === undefined) return;
  void startRun(text);
});

byId<HTMLButtonElement>('new-run').addEventListener('click', () => {
  run = undefined;
  sessionStorage.removeItem(RUN_KEY);
  renderRun();
  prompt.focus();
});

function signIn(token: string | null): void {
  if (token === null || token === '') {
    loginForm.hidden = false;
    app.hidden = true;
    return;
  }
  api = new RunApi(token);
  loginForm.hidden = true;
  app.hidden = false;
  who.textContent = 'signed in';
  const runId = sessionStorage.getItem(RUN_KEY);
  if (runId !== null) void refreshRun(runId);
  if (!polling) void poll();
}

async function startRun(text: string): Promise<void> {
  if (api === undefined || starting) return;
  starting = true;
  send.disabled = true;
  // A finished run is continued: its text conversation goes along with the new message.
  const earlier = run !== undefined && FINISHED.has(run.status) ? conversationOf(run) : [];
  const messages = [...earlier, { role: 'user' as const, content: text }];
  renderMessages(
    messageList,
    messages.map(
      (message): Message =>
        message.role === 'user'
          ? { role: 'user', content: message.content }
          : { role: 'assistant', content: [{ type: 'text', text: message.content }] },
    ),
  );
  statusLine.textContent = 'Running…';
  prompt.value = '';
  try {
    const { run: started } = await api.startRun(messages);
    show(started);
    await refreshApprovals();
  } catch (error) {
    report(error);
  } finally {
    starting = false;
    send.disabled = false;
  }
}

async function refreshRun(runId: string): Promise<void> {
  if (api === undefined) return;
  try {
    show((await api.readRun(runId)).run);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'run_not_found') {
      sessionStorage.removeItem(RUN_KEY);
      run = undefined;
      renderRun();
      return;
    }
    report(error);
  }
}

async function refreshApprovals(): Promise<void> {
  if (api === undefined) return;
  try {
    renderApprovals((await api.approvals()).approvals);
  } catch (error) {
    report(error);
  }
}

async function poll(): Promise<void> {
  polling = true;
  for (;;) {
    await refreshApprovals();
    if (run !== undefined && !FINISHED.has(run.status) && run.status !== 'paused') await refreshRun(run.id);
    await new Promise((wake) => setTimeout(wake, POLL_MS));
  }
}

function show(view: RunView): void {
  run = view;
  sessionStorage.setItem(RUN_KEY, view.id);
  renderRun();
}

function renderRun(): void {
  if (run === undefined) {
    messageList.replaceChildren();
    statusLine.textContent = 'No run yet: ask something below.';
    delete statusLine.dataset['status'];
    return;
  }
  renderMessages(messageList, run.messages);
  statusLine.dataset['status'] = run.status;
  statusLine.textContent = describe(run);
}

function describe(view: RunView): string {
  switch (view.status) {
    case 'paused':
      return `Paused: ${view.pending.length} call(s) wait for your decision.`;
    case 'completed':
      return 'Completed.';
    case 'interrupted':
      return `Interrupted: ${view.error ?? 'the model failed'}.`;
    case 'aborted':
      return 'Cancelled.';
    default:
      return `Run ${view.status}…`;
  }
}

function renderApprovals(approvals: readonly ApprovalView[]): void {
  // Re-rendered only when the list changed, so focus and a note being typed survive the polling.
  const signature = approvals
    .map((approval) => `${approval.runId}:${approval.callId}:${approval.inputDigest}:${approval.taintDigest ?? ''}`)
    .join('|');
  if (signature === shownApprovals) return;
  shownApprovals = signature;
  approvalList.replaceChildren(
    ...approvals.map((approval) =>
      renderApproval(approval, { decide: (a, approved, note) => void decide(a, approved, note, approvals) }),
    ),
  );
  inboxEmpty.hidden = approvals.length > 0;
}

async function decide(
  approval: ApprovalView,
  approved: boolean,
  note: string,
  all: readonly ApprovalView[],
): Promise<void> {
  if (api === undefined) return;
  const decision: DecisionBody = {
    callId: approval.callId,
    approved,
    inputDigest: approval.inputDigest,
    ...(approval.taintDigest === undefined ? {} : { taintDigest: approval.taintDigest }),
    ...(note.trim() === '' ? {} : { note: note.trim() }),
  };
  const taken = choices.get(approval.runId) ?? new Map<string, DecisionBody>();
  taken.set(approval.callId, decision);
  choices.set(approval.runId, taken);
  const card = approvalList.querySelector<HTMLElement>(
    `[data-approval="${CSS.escape(`${approval.runId}:${approval.callId}`)}"]`,
  );
  for (const button of card?.querySelectorAll('button') ?? []) button.disabled = true;
  const ofRun = all.filter((other) => other.runId === approval.runId);
  const missing = ofRun.filter((other) => !taken.has(other.callId));
  if (missing.length > 0) {
    say(`Decided ${approval.toolName}; ${missing.length} more call(s) of this run wait for you before it goes on.`);
    return;
  }
  choices.delete(approval.runId);
  say(approved ? `Approved ${approval.toolName}; the run goes on…` : `Declined ${approval.toolName}; the run goes on…`);
  if (run?.id === approval.runId) statusLine.textContent = 'Running…';
  try {
    const { run: after } = await api.decide(approval.runId, [...taken.values()]);
    if (run === undefined || run.id === after.id) show(after);
    say(`${approved ? 'Approved' : 'Declined'} ${approval.toolName}. ${describe(after)}`);
    // The card the focus was on is gone: keyboard users land on what happened, then Tab on to the chat.
    notice.focus();
  } catch (error) {
    report(error);
    // Whoever decided it, the run goes on: show it here too.
    if (run === undefined || run.id === approval.runId) await refreshRun(approval.runId);
  }
  await refreshApprovals();
}

function report(error: unknown): void {
  if (error instanceof ApiError && error.status === 401) {
    sessionStorage.removeItem(TOKEN_KEY);
    api = undefined;
    signIn(null);
    return;
  }
  if (error instanceof ApiError && ['decision_conflict', 'run_not_paused', 'call_not_pending'].includes(error.code)) {
    say('Someone already decided this call (another tab or login): it was not decided twice.', error.code);
    return;
  }
  if (error instanceof ApiError && ['input_digest_mismatch', 'taint_digest_mismatch'].includes(error.code)) {
    say(`The request changed since it was shown: look at it again. (${error.message})`, error.code);
    return;
  }
  say(error instanceof Error ? error.message : String(error), error instanceof ApiError ? error.code : 'error');
}

function say(text: string, code?: string): void {
  notice.hidden = false;
  notice.textContent = text;
  if (code === undefined) delete notice.dataset['code'];
  else notice.dataset['code'] = code;
}

function conversationOf(view: RunView): ChatMessage[] {
  return view.messages.flatMap((message): ChatMessage[] => {
    if (message.role === 'user') {
      const content =
        typeof message.content === 'string' ? message.content : message.content.map((part) => part.text).join('');
      return [{ role: 'user' as const, content }];
    }
    if (message.role !== 'assistant') return [];
    const content = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
    return content === '' ? [] : [{ role: 'assistant' as const, content }];
  });
}
