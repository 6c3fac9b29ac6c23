import { CATEGORY_LABELS, describeCall, describeRefusal, flaggedInWords } from '../model/describe-call.js';
import { type AttemptView, type CallView, gateOfCall, type RunView } from '../model/run-view.js';
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
  const gate = gateOfCall(call);
  if (gate !== undefined) parts.push(renderGate(gate, run));
  if (decision !== undefined) {
    const informed =
      decision.informedOf === undefined
        ? []
        : [
            row(
              'informed of',
              decision.informedOf === gate?.taintDigest
                ? `the untrusted sources above (taint digest ${decision.informedOf.slice(0, 12)}…)`
                : `taint digest ${decision.informedOf}`,
            ),
          ];
    parts.push(
      '<h3>Human decision</h3><dl>',
      row('decision', decision.approved ? 'approved' : 'denied'),
      row('by', decision.by),
      row('for arguments with digest', decision.inputDigest),
      ...informed,
      ...(decision.note === undefined ? [] : [row('note', decision.note)]),
      '</dl>',
    );
  }
  call.attempts.forEach((attempt, index) => {
    parts.push(renderAttempt(attempt, index, call.attempts.length, run));
  });
  return parts.join('');
}

/**
 * Why the call was gated: untrusted output was in the run when the model asked for it, so it could run only
 * with a confirmation given after that output arrived, by a human shown it (or under an `allow` policy).
 */
function renderGate(gate: NonNullable<ReturnType<typeof gateOfCall>>, run: RunView): string {
  const sourceInWords = (source: (typeof gate.untrustedSources)[number]) => {
    const known = run.calls.some((call) => call.callId === source.callId && call.turn === source.turn);
    const where = source.turn === 0 ? 'already in the conversation the run started from' : `turn ${source.turn}`;
    return `${source.toolName} (call ${source.callId}, ${where}${known ? '' : ', not in this trace'}), output ${source.outputDigest.slice(0, 12)}…`;
  };
  const flagged = gate.flaggedArguments.map((item) => {
    const from = item.foundIn.map((source) => `${source.toolName} (call ${source.callId})`).join(', ');
    return `<li><code>${escapeHtml(flaggedInWords(item))}</code> found in ${escapeHtml(from)}</li>`;
  });
  return [
    '<div class="gate-why" data-detail="gate"><h3>Why it was gated</h3>',
    '<p>Untrusted content was in the run when the model asked for this call: it runs only with a confirmation ',
    'given after that content arrived, by a human shown where the arguments came from.</p><dl>',
    row('gated because', gate.gatedBecause === 'irreversible' ? 'irreversible' : 'marked sensitive'),
    ...(gate.policy === undefined ? [] : [row('policy', gate.policy)]),
    row('taint digest', gate.taintDigest),
    '</dl><h3>Untrusted sources in the context</h3><ul data-detail="sources">',
    ...gate.untrustedSources.map((source) => `<li>${escapeHtml(sourceInWords(source))}</li>`),
    '</ul><h3>Argument values found in them</h3>',
    flagged.length === 0
      ? '<p class="hint">none verbatim (values can still have been re-encoded)</p>'
      : `<ul data-detail="flagged">${flagged.join('')}</ul>`,
    '</div>',
  ].join('');
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
    ...(attempt.outputTrust === undefined
      ? []
      : [
          row(
            'output trust',
            attempt.outputTrust === 'untrusted'
              ? 'untrusted: once in the run, irreversible calls need a fresh, informed confirmation'
              : 'trusted',
          ),
        ]),
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
