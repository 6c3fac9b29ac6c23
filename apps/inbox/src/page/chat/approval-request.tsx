import type { ApprovalView } from '@toolcircuit/server';
import { useState } from 'react';

/** The informed request the server sends in the `data-toolcircuit-approval` part: its approval, and the id. */
export type ApprovalData = ApprovalView & { readonly approvalId: string };

/**
 * One held call: the exact arguments, and once untrusted content is in the run, the sources with the values
 * the arguments copied from them marked in both. Approve and decline are labelled buttons, reachable by Tab.
 */
export function ApprovalRequest({
  toolName,
  input,
  data,
  onAnswer,
}: {
  readonly toolName: string;
  readonly input: unknown;
  readonly data: ApprovalData | undefined;
  readonly onAnswer: (approved: boolean, reason: string) => void;
}) {
  const [reason, setReason] = useState('');
  const [sent, setSent] = useState(false);
  const flagged = (data?.flaggedArguments ?? []).map((argument) => argument.decoded ?? String(argument.value));
  const answer = (approved: boolean) => {
    setSent(true);
    onAnswer(approved, reason);
  };
  const noteId = `note-${data?.approvalId ?? toolName}`;
  return (
    <section className="approval" aria-label={`Approval of ${toolName}`} data-approval={data?.callId ?? ''}>
      {data?.gatedBecause === undefined ? (
        <p>Held because it is irreversible: it runs only if you approve these exact arguments.</p>
      ) : (
        <p className="gated">
          Held because it is {data.gatedBecause} and came after untrusted content ({data.untrustedSources.length}{' '}
          {data.untrustedSources.length === 1 ? 'source' : 'sources'}).
        </p>
      )}
      <h3>Arguments</h3>
      <pre className="arguments" data-arguments="">
        <Marked
          // The server's copy of the arguments, the ones the approval's digests bind; the tool part's own
          // input is what the stream said while the model wrote the call.
          text={JSON.stringify(data?.input ?? input, null, 2)}
          values={(data?.flaggedArguments ?? []).map((argument) => JSON.stringify(argument.value))}
        />
      </pre>
      {flagged.length === 0 ? null : (
        <p className="flagged" data-flagged="">
          Copied from untrusted content:{' '}
          {(data?.flaggedArguments ?? []).map((argument) => (
            <span key={argument.path}>
              <code>{argument.path}</code> = <mark>{String(argument.value)}</mark>{' '}
            </span>
          ))}
        </p>
      )}
      {(data?.untrustedSources ?? []).map((source) => (
        <figure key={`${source.turn}-${source.callId}`} className="source">
          <figcaption>
            Untrusted source: {source.toolName} (call {source.callId}, turn {source.turn})
          </figcaption>
          <pre className="excerpt" data-excerpt={source.callId}>
            {source.truncated ? '… ' : ''}
            <Marked text={source.excerpt} values={flagged} />
            {source.truncated ? ' …' : ''}
          </pre>
        </figure>
      ))}
      <label htmlFor={noteId}>Note to the model (optional)</label>
      <input id={noteId} value={reason} onChange={(event) => setReason(event.target.value)} disabled={sent} />
      <div className="actions">
        <button
          type="button"
          aria-label={`Approve ${toolName} with these arguments`}
          disabled={sent}
          onClick={() => answer(true)}
        >
          Approve
        </button>
        <button type="button" aria-label={`Decline ${toolName}`} disabled={sent} onClick={() => answer(false)}>
          Decline
        </button>
      </div>
    </section>
  );
}

/** `text` with each occurrence of the flagged `values` in a `<mark>`. */
function Marked({ text, values }: { readonly text: string; readonly values: readonly string[] }) {
  const wanted = values.filter((value) => value !== '');
  const pieces: { text: string; marked: boolean }[] = [];
  let at = 0;
  while (at < text.length) {
    let next: { index: number; value: string } | undefined;
    for (const value of wanted) {
      const index = text.indexOf(value, at);
      if (index >= 0 && (next === undefined || index < next.index)) next = { index, value };
    }
    if (next === undefined) break;
    if (next.index > at) pieces.push({ text: text.slice(at, next.index), marked: false });
    pieces.push({ text: next.value, marked: true });
    at = next.index + next.value.length;
  }
  if (at < text.length) pieces.push({ text: text.slice(at), marked: false });
  return (
    <>
      {pieces.map((piece, index) =>
        // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one text, in order.
        piece.marked ? <mark key={index}>{piece.text}</mark> : <span key={index}>{piece.text}</span>,
      )}
    </>
  );
}
