import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from 'ai';
import { useMemo, useState } from 'react';
import { type ApprovalData, ApprovalRequest } from './approval-request.js';

/** The data part the server sends with each approval request: the informed request. */
const APPROVAL_DATA = 'data-toolcircuit-approval';

type Part = UIMessage['parts'][number];
type ToolPart = Extract<Part, { type: 'dynamic-tool' }>;

/**
 * The conversation as `useChat` holds it: the user's messages, the model's text, each tool call with its
 * state, and for a call held for this human the informed request with approve and decline. An answer goes
 * back with `addToolApprovalResponse`, and the chat sends it on its own once every held call is answered.
 */
export function ChatPage({ token }: { readonly token: string }) {
  const transport = useMemo(
    // A relative URL: the page works under any prefix it is served at. A bearer token, never a cookie.
    () => new DefaultChatTransport({ api: 'chat', headers: { authorization: `Bearer ${token}` } }),
    [token],
  );
  const { messages, sendMessage, addToolApprovalResponse, status, error } = useChat({
    transport,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const [text, setText] = useState('');
  const busy = status === 'submitted' || status === 'streaming';
  return (
    <main className="chat-page">
      <p className="status" role="status" aria-live="polite" data-status={status}>
        {busy ? 'Working…' : 'Ready.'}
      </p>
      <ol className="messages" aria-label="Conversation">
        {messages.map((message) => (
          <li key={message.id} className={`message ${message.role}`} data-role={message.role}>
            <span className="role">{message.role === 'user' ? 'You' : 'Assistant'}</span>
            {message.parts.map((part, index) => (
              <PartView
                // Parts have no id of their own; their place in the message is stable while it streams.
                // biome-ignore lint/suspicious/noArrayIndexKey: see above.
                key={index}
                part={part}
                message={message}
                onAnswer={(id, approved, reason) =>
                  addToolApprovalResponse({ id, approved, ...(reason === '' ? {} : { reason }) })
                }
              />
            ))}
          </li>
        ))}
      </ol>
      {error === undefined ? null : (
        <p className="notice" role="alert">
          {errorText(error)}
        </p>
      )}
      <form
        className="chat-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (text.trim() === '' || busy) return;
          void sendMessage({ text });
          setText('');
        }}
      >
        <label htmlFor="prompt">Message</label>
        <textarea id="prompt" rows={3} required value={text} onChange={(event) => setText(event.target.value)} />
        <div className="actions">
          <button type="submit" disabled={busy}>
            Send
          </button>
        </div>
      </form>
    </main>
  );
}

function PartView({
  part,
  message,
  onAnswer,
}: {
  readonly part: Part;
  readonly message: UIMessage;
  readonly onAnswer: (id: string, approved: boolean, reason: string) => void;
}) {
  if (part.type === 'text') return <p className="text">{part.text}</p>;
  if (part.type === 'reasoning') return <p className="reasoning">{part.text}</p>;
  if (part.type === 'dynamic-tool') return <ToolView part={part} message={message} onAnswer={onAnswer} />;
  // Steps and the approval data parts (shown with their call) draw nothing of their own.
  return null;
}

function ToolView({
  part,
  message,
  onAnswer,
}: {
  readonly part: ToolPart;
  readonly message: UIMessage;
  readonly onAnswer: (id: string, approved: boolean, reason: string) => void;
}) {
  return (
    <div className="tool" data-tool={part.toolName} data-state={part.state}>
      <p className="tool-head">
        <code>{part.toolName}</code> <span className="tool-state">{stateText(part)}</span>
      </p>
      {part.state === 'approval-requested' ? (
        <ApprovalRequest
          toolName={part.toolName}
          input={part.input}
          data={approvalDataOf(message, part.approval.id)}
          onAnswer={(approved, reason) => onAnswer(part.approval.id, approved, reason)}
        />
      ) : null}
      {part.state === 'output-available' ? <pre className="output">{String(part.output)}</pre> : null}
      {part.state === 'output-error' ? <pre className="output error">{part.errorText}</pre> : null}
    </div>
  );
}

function approvalDataOf(message: UIMessage, approvalId: string): ApprovalData | undefined {
  const found = message.parts.find(
    (part) => part.type === APPROVAL_DATA && (part as { id?: string }).id === approvalId,
  ) as { data?: ApprovalData } | undefined;
  return found?.data;
}

function stateText(part: ToolPart): string {
  switch (part.state) {
    case 'input-streaming':
    case 'input-available':
      return 'called';
    case 'approval-requested':
      return 'waiting for your decision';
    case 'approval-responded':
      return part.approval.approved ? 'approved, running' : 'declined';
    case 'output-available':
      return 'done';
    case 'output-error':
      return 'failed';
    case 'output-denied':
      return 'declined: not run';
  }
}

/** The server's JSON error (`{ error: { code, message } }`) as the transport passes it on, for people. */
function errorText(error: Error): string {
  try {
    const body = JSON.parse(error.message) as { error?: { code?: string; message?: string } };
    if (body.error?.message !== undefined) return `${body.error.message} (${body.error.code ?? 'error'})`;
  } catch {
    // Not the server's JSON: the message as it is.
  }
  return error.message;
}
