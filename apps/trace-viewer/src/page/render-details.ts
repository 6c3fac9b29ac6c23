import { CATEGORY_LABELS, describeCall, describeRefusal } from '../model/describe-call.js';
import type { AttemptView, CallView, RunView } from '../model/run-view.js';
import { escapeHtml } from './escape-html.js';
import { formatMs } from './render-turn.js';

/** The detail pane of one call: every attempt with its verdict, input, result, digests and provenance. */
export function renderDetails(call: CallView, run: RunView): string {
  const turn = run.turns.find((candidate) => candidate.turn === call.turn);
  const decision = turn?.decisions.find((candidate) => candidate.callId === call.callId);
  const parts = [
    `<h2 data-detail-tool="${escapeHtml(call.tool)}">${escapeHtml(call.tool)}</h2>`,
    `<p class="verdict what cat-${call.category}">${escapeHtml(describeCall(call))}</p>`,
    '<dl>',
    row('category', CATEGORY_LABELS[call.category]),
    row('turn', String(call.turn)),
    row('position in turn', call.index >= 0 ? String(call.index + 1) : '—'),
    row('call id', call.callId),
    row('lane', `${call.lane + 1} of ${turn?.lanes ?? 1}`),
    '</dl>',
  ];
  if (decision !== undefined) {
    parts.push(
      '<h3>Human decision</h3><dl>',
      row('decision', decision.approved ? 'approved' : 'denied'),
      row('by', decision.by),
      row('for arguments with digest', decision.inputDigest),
      ...(decision.note === undefined ? [] : [row('note', decision.note)]),
      '</dl>',
    );
  }
  call.attempts.forEach((attempt, index) => {
    parts.push(renderAttempt(attempt, index, call.attempts.length, run));
  });
  return parts.join('');
}

function renderAttempt(attempt: AttemptView, index: number, count: number, run: RunView): string {
  const title =
    count === 1 ? 'Attempt' : `Attempt ${index + 1} of ${count}${attempt.resumed ? ' (after the decision)' : ''}`;
  const checks = [
    row('verdict', verdictInWords(attempt)),
    ...(attempt.reason === undefined ? [] : [row('reason', attempt.reason)]),
    ...(attempt.message === undefined ? [] : [row('message', attempt.message)]),
    row('right checked', attempt.right === undefined ? 'unknown tool' : (attempt.right ?? 'open to every session')),
    row(
      'irreversible',
      attempt.irreversible === undefined ? '—' : attempt.irreversible ? 'yes: needs the human’s confirmation' : 'no',
    ),
    row('retries before it', String(attempt.retries)),
    row('started', `${formatMs(attempt.start - run.start)} into the run`),
    row('took', formatMs(attempt.end - attempt.start)),
  ];
  const digests = [
    row('input', attempt.inputDigest ?? '—'),
    ...(attempt.irreversible === true && attempt.inputDigest !== null
      ? [row('confirmation', `${attempt.inputDigest.slice(0, 12)}… (the human confirms these exact arguments)`)]
      : []),
    ...(attempt.outputDigest === undefined ? [] : [row('output', attempt.outputDigest)]),
    ...(attempt.entryDigest === undefined
      ? []
      : [row(run.source === 'journal' ? 'journal row hash' : 'journal entry', attempt.entryDigest)]),
  ];
  const provenance = attempt.provenance;
  return [
    `<div class="attempt"><h3>${escapeHtml(title)}</h3><dl>${checks.join('')}</dl>`,
    '<h3>Input</h3>',
    attempt.input === undefined
      ? '<p class="hint">not recorded (content capture off)</p>'
      : `<pre data-detail="input">${escapeHtml(JSON.stringify(attempt.input, null, 2))}</pre>`,
    '<h3>Result sent to the model</h3>',
    attempt.result === undefined
      ? `<p class="hint">${attempt.verdict === 'awaiting_confirmation' ? 'none yet: held for the human' : 'not recorded (content capture off)'}</p>`
      : `<pre data-detail="result">${escapeHtml(typeof attempt.result === 'string' ? attempt.result : JSON.stringify(attempt.result, null, 2))}</pre>`,
    `<h3>Digests (SHA-256)</h3><dl>${digests.join('')}</dl>`,
    '<h3>Provenance</h3><dl>',
    provenance === undefined
      ? row('source', 'journal')
      : [
          row('asked by', `the model, turn ${provenance.turn}`),
          row('provider', provenance.provider),
          ...(provenance.responseId === undefined ? [] : [row('response id', provenance.responseId)]),
        ].join(''),
    '</dl></div>',
  ].join('');
}

function verdictInWords(attempt: AttemptView): string {
  switch (attempt.verdict) {
    case 'refused':
      return `${describeRefusal(attempt)} (${attempt.verdict})`;
    case 'awaiting_confirmation':
      return "held for the human's confirmation (awaiting_confirmation)";
    case 'executed':
      return attempt.isError ? 'ran, returned an error (executed)' : 'ran (executed)';
    case 'failed':
      return 'the tool threw (failed)';
    case 'timed_out':
      return `timed out after ${attempt.timeoutMs ?? '?'} ms (timed_out)`;
    case 'aborted':
      return 'aborted';
  }
}

function row(name: string, value: string): string {
  return `<dt>${escapeHtml(name)}</dt><dd>${escapeHtml(value)}</dd>`;
}
