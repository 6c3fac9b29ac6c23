import { clip, describeCall, flaggedInWords, gateSummary, inputPreview } from '../model/describe-call.js';
import { ROW, type TurnBox } from '../model/layout.js';
import { type CallView, gateOfCall, hasUntrustedOutput, type TurnView } from '../model/run-view.js';
import type { ModelCallRecord } from '../model/trace-types.js';
import { escapeHtml } from './escape-html.js';

/** One turn's block: its header (model call, usage), a row per call on the turn's time axis, then its markers. */
export function renderTurn(box: TurnBox, selected: string | undefined): string {
  const { turn, calls } = box;
  const span = Math.max(turn.end - turn.start, 0.001);
  const position = (start: number, end: number) => {
    const left = ((start - turn.start) / span) * 100;
    const width = ((Math.max(end, start) - start) / span) * 100;
    return `left:${clamp(left)}%;width:${clamp(Math.min(width, 100 - clamp(left)))}%`;
  };
  const parts: string[] = [
    `<section class="turn" data-turn="${turn.turn}" style="top:${box.top}px;height:${box.height}px">`,
    `<div class="turn-head">Turn ${turn.turn}<span class="meta">${escapeHtml(turnMeta(turn))}</span></div>`,
  ];
  const model = turn.modelCall;
  if (model !== undefined) {
    parts.push(
      `<div class="row model" style="height:${ROW.model}px"><span>model · ${escapeHtml(modelName(model))}</span>`,
      `<span class="track"><span class="bar model" style="${position(model.start, model.end)}"></span></span>`,
      `<span class="what">${escapeHtml(formatMs(model.end - model.start))}</span></div>`,
    );
  }
  for (const call of calls) parts.push(renderCall(call, turn, position, call.key === selected));
  if (box.showMarkers && model?.text !== undefined && model.text.trim() !== '') {
    parts.push(
      `<div class="marker text"><span class="tag">SAYS</span> ${escapeHtml(clip(model.text.trim().replace(/\s+/g, ' '), 160))}</div>`,
    );
  }
  for (const call of box.showMarkers ? turn.calls : []) {
    const gate = gateOfCall(call);
    if (gate !== undefined) parts.push(gateMarker(call, gate));
  }
  if (box.showMarkers && model?.sources !== undefined && model.sources.length > 0) {
    parts.push(
      `<div class="marker sources" data-sources="${model.sources.length}"><span class="tag">SOURCES</span> ${escapeHtml(clip(sourcesLine(model.sources), 200))}</div>`,
    );
  }
  if (box.showMarkers && model?.providerParts !== undefined && model.providerParts.length > 0) {
    const kinds = model.providerParts.map((part) => `${part.kind} (${part.provider})`).join(', ');
    parts.push(
      `<div class="marker kept" data-provider-parts="${model.providerParts.length}"><span class="tag">KEPT</span> Not understood, kept in the conversation and journaled: ${escapeHtml(clip(kinds, 160))}</div>`,
    );
  }
  for (const pause of box.showMarkers ? turn.pauses : []) {
    const names = pause.pending
      .map((pending) => `${pending.tool} (digest ${pending.inputDigest.slice(0, 12)}…)`)
      .join(', ');
    parts.push(
      `<div class="marker pause"><span class="tag">PAUSED</span> Run paused: ${escapeHtml(names)} waits for the human's confirmation</div>`,
    );
  }
  for (const decision of box.showMarkers ? turn.decisions : []) {
    const ran = turn.calls.find((call) => call.callId === decision.callId);
    const runs = ran?.attempts.filter((attempt) => attempt.verdict === 'executed').length ?? 0;
    const outcome = decision.approved ? `; it then ran ${runs === 1 ? 'once' : `${runs} times`}` : '; it was not run';
    parts.push(
      `<div class="marker decision"><span class="tag">${decision.approved ? 'APPROVED' : 'DENIED'}</span> ${escapeHtml(decision.by)} ${decision.approved ? 'approved' : 'denied'} ${escapeHtml(decision.tool)} (digest ${escapeHtml(decision.inputDigest.slice(0, 12))}…)${outcome}</div>`,
    );
  }
  if (model?.error !== undefined) {
    const retry = model.error.retryable === true ? ' (retryable)' : '';
    parts.push(
      `<div class="marker error">✘ model error: ${escapeHtml(model.error.type)}${retry}: ${escapeHtml(clip(model.error.message, 120))}</div>`,
    );
  }
  parts.push('</section>');
  return parts.join('');
}

function renderCall(
  call: CallView,
  turn: TurnView,
  position: (start: number, end: number) => string,
  selected: boolean,
): string {
  const first = call.attempts[0];
  const last = call.attempts.at(-1);
  const input = inputPreview(first?.input);
  const retries = last !== undefined && last.retries > 0 ? `<span class="badge">retry ${last.retries}</span>` : '';
  const parallel = turn.lanes > 1 ? `<span class="badge">lane ${call.lane + 1}/${turn.lanes}</span>` : '';
  const summary = gateSummary(call);
  const gated =
    summary === undefined
      ? ''
      : `<span class="badge gated" data-gated title="${escapeHtml(summary)}">⚠ untrusted content</span>`;
  const untrusted = hasUntrustedOutput(call)
    ? '<span class="badge untrusted" data-untrusted-output>untrusted output</span>'
    : '';
  const bar =
    first === undefined
      ? ''
      : `<span class="bar cat-${call.category}" style="${position(first.start, first.end)}"></span>`;
  return [
    `<div class="row call${selected ? ' selected' : ''}" role="button" tabindex="0" data-key="${escapeHtml(call.key)}" data-category="${call.category}" data-tool="${escapeHtml(call.tool)}">`,
    `<span class="name">${escapeHtml(call.tool)}${input === '' ? '' : `<code>${escapeHtml(input)}</code>`}</span>`,
    `<span class="track">${bar}</span>`,
    `<span class="what cat-${call.category}">${escapeHtml(describeCall(call))}${gated}${untrusted}${retries}${parallel}</span>`,
    '</div>',
  ].join('');
}

/**
 * One line under a gated call: the untrusted sources it followed and the argument values copied from them,
 * so an attacker's account number does not look like any other approved argument.
 */
function gateMarker(call: CallView, gate: NonNullable<ReturnType<typeof gateOfCall>>): string {
  const sources = gate.untrustedSources.map((source) => `${source.toolName} (call ${source.callId})`).join(', ');
  const flagged = gate.flaggedArguments.map(flaggedInWords).join(', ');
  const text =
    `${call.tool} after untrusted content from ${sources === '' ? 'the run' : sources}` +
    (flagged === '' ? '' : `; copied from it: ${flagged}`);
  return `<div class="marker gated" data-gate-marker="${escapeHtml(call.callId)}"><span class="tag">GATED</span> ${escapeHtml(clip(text, 240))}</div>`;
}

/** Each source once, by its title and where it is (URL, file), in the order the text cites them. */
function sourcesLine(sources: NonNullable<ModelCallRecord['sources']>): string {
  const seen = new Set<string>();
  const names: string[] = [];
  for (const source of sources) {
    const where = source.url ?? source.filename ?? source.fileId ?? '';
    const name = source.title === undefined ? where : where === '' ? source.title : `${source.title} <${where}>`;
    if (name === '' || seen.has(name)) continue;
    seen.add(name);
    names.push(name);
  }
  const count = `${sources.length} citation${sources.length === 1 ? '' : 's'}`;
  return names.length === 0 ? count : `${count}: ${names.join(' · ')}`;
}

function turnMeta(turn: TurnView): string {
  const model = turn.modelCall;
  const bits: string[] = [];
  if (model !== undefined) {
    bits.push(`model ${formatMs(model.end - model.start)}`);
    const usage = model.usage;
    if (usage?.inputTokens !== undefined || usage?.outputTokens !== undefined) {
      bits.push(`${usage?.inputTokens ?? '?'} in / ${usage?.outputTokens ?? '?'} out tokens`);
    }
    if (model.cost !== undefined) bits.push(costText(model.cost));
    if (model.stopReason !== undefined) bits.push(`stop: ${model.stopReason.unified}`);
  }
  const calls = turn.calls.length;
  bits.push(`${calls} call${calls === 1 ? '' : 's'}`);
  if (turn.lanes > 1) bits.push(`${turn.lanes} in parallel`);
  return bits.join(' · ');
}

/** The model that answered the turn: a fallback list's member by its id, else what the provider said it ran. */
function modelName(model: ModelCallRecord): string {
  const answering = model.answeringModel;
  if (answering !== undefined) {
    return `${answering.provider}:${answering.modelId}${answering.member > 0 ? ` (fallback #${answering.member})` : ''}`;
  }
  return model.responseModel ?? model.requestModel;
}

/** A turn's cost as the trace says it: dollars, or unknown (never shown as zero). */
function costText(cost: NonNullable<ModelCallRecord['cost']>): string {
  return cost.usd === 'unknown' ? 'cost unknown' : `$${cost.usd.toFixed(6)}`;
}

export function formatMs(ms: number): string {
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

function clamp(value: number): number {
  return Number.isFinite(value) ? Math.min(Math.max(value, 0), 100) : 0;
}
