import { type CallFilter, matchesFilter } from '../model/describe-call.js';
import { layoutTurns, type TurnBox, visibleBoxes } from '../model/layout.js';
import { type ParsedTrace, parseTraceText } from '../model/parse-trace-text.js';
import type { CallView, RunView } from '../model/run-view.js';
import { escapeHtml } from './escape-html.js';
import { renderDetails } from './render-details.js';
import { renderTurn } from './render-turn.js';

const OVERSCAN_PX = 600;

const element = <T extends HTMLElement>(id: string): T => {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`#${id} missing from the page`);
  return found as T;
};

const timeline = element<HTMLDivElement>('timeline');
const spacer = element<HTMLDivElement>('spacer');
const summary = element<HTMLElement>('summary');
const details = element<HTMLElement>('details');
const problems = element<HTMLParagraphElement>('problems');
const runSelect = element<HTMLSelectElement>('run');
const filesSelect = element<HTMLSelectElement>('files');
const toolFilter = element<HTMLInputElement>('tool-filter');

const state: {
  parsed: ParsedTrace | undefined;
  run: RunView | undefined;
  filter: CallFilter;
  tool: string;
  boxes: TurnBox[];
  selected: string | undefined;
  frame: number;
} = { parsed: undefined, run: undefined, filter: 'all', tool: '', boxes: [], selected: undefined, frame: 0 };

function load(text: string, name: string): void {
  const started = performance.now();
  const parsed = parseTraceText(text);
  state.parsed = parsed;
  runSelect.innerHTML = parsed.runs
    .map(
      (run, index) =>
        `<option value="${index}">${escapeHtml(run.label ?? run.runId)} · ${run.turns.length} turns</option>`,
    )
    .join('');
  runSelect.hidden = parsed.runs.length < 2;
  problems.hidden = parsed.problems.length === 0;
  problems.textContent =
    parsed.problems.length === 0
      ? ''
      : `${parsed.problems.length} line(s) skipped: ${parsed.problems.slice(0, 3).join('; ')}${parsed.problems.length > 3 ? '…' : ''}`;
  document.title = `${name} · toolcircuit trace viewer`;
  selectRun(0);
  document.body.dataset['loadMs'] = String(Math.round(performance.now() - started));
  document.body.dataset['loaded'] = name;
}

function selectRun(index: number): void {
  state.run = state.parsed?.runs[index];
  state.selected = undefined;
  details.innerHTML = '<p class="hint">Click a call to see its input, result, digests and provenance.</p>';
  relayout();
}

function relayout(): void {
  const run = state.run;
  if (run === undefined) {
    summary.innerHTML = state.parsed === undefined ? summary.innerHTML : 'No run in this file.';
    state.boxes = [];
    spacer.style.height = '0px';
    spacer.innerHTML = '';
    return;
  }
  const keep = (call: CallView) => matchesFilter(call, state.filter, state.tool);
  const filtering = state.filter !== 'all' || state.tool !== '';
  const markers = state.filter === 'all' || state.filter === 'confirmations';
  const { boxes, height } = layoutTurns(run.turns, keep, !filtering, markers);
  state.boxes = boxes;
  spacer.style.height = `${height}px`;
  const shownCalls = boxes.reduce((sum, box) => sum + box.calls.length, 0);
  summary.innerHTML = renderSummary(run, boxes.length, shownCalls, filtering);
  spacer.innerHTML = '';
  paint();
}

function renderSummary(run: RunView, shownTurns: number, shownCalls: number, filtering: boolean): string {
  const counts = new Map<string, number>();
  for (const call of run.calls) counts.set(call.category, (counts.get(call.category) ?? 0) + 1);
  const count = (category: string) => counts.get(category) ?? 0;
  const bits = [
    `<span>${escapeHtml(run.label ?? 'run')} <code>${escapeHtml(run.runId)}</code>${run.provider === undefined ? '' : ` · ${escapeHtml(run.provider)} ${escapeHtml(run.model ?? '')}`}</span>`,
    `<span>status <b data-status>${escapeHtml(run.status ?? (run.source === 'journal' ? 'journal' : 'unfinished'))}</b></span>`,
    `<span><b data-turns="${run.turns.length}">${run.turns.length}</b> turns</span>`,
    `<span><b data-calls="${run.calls.length}">${run.calls.length}</b> calls (${run.attempts} attempts)</span>`,
    `<span>${count('ok') + count('approved')} ran · ${count('refused') + count('denied')} refused · ${count('paused')} waiting · ${count('tool-error')} errors</span>`,
    run.usage.input + run.usage.output > 0 ? `<span>${run.usage.input} in / ${run.usage.output} out tokens</span>` : '',
    `<span>${run.invocations} invocation${run.invocations === 1 ? '' : 's'}</span>`,
  ];
  if (filtering)
    bits.push(
      `<span class="shown">showing <b data-shown-calls="${shownCalls}">${shownCalls}</b> calls in ${shownTurns} turns</span>`,
    );
  return bits.join('');
}

/** Renders only the turns in (and near) the viewport. */
function paint(): void {
  state.frame = 0;
  const run = state.run;
  if (run === undefined) return;
  const from = timeline.scrollTop - OVERSCAN_PX;
  const to = timeline.scrollTop + timeline.clientHeight + OVERSCAN_PX;
  const shown = visibleBoxes(state.boxes, from, to);
  spacer.innerHTML = shown.map((box) => renderTurn(box, state.selected)).join('');
}

function schedulePaint(): void {
  if (state.frame === 0) state.frame = requestAnimationFrame(paint);
}

function openCall(key: string): void {
  const run = state.run;
  const call = run?.calls.find((candidate) => candidate.key === key);
  if (run === undefined || call === undefined) return;
  state.selected = key;
  details.innerHTML = renderDetails(call, run);
  paint();
}

timeline.addEventListener('scroll', schedulePaint, { passive: true });
window.addEventListener('resize', schedulePaint);
timeline.addEventListener('click', (event) => {
  const row = (event.target as HTMLElement).closest<HTMLElement>('.row.call');
  const key = row?.dataset['key'];
  if (key !== undefined) openCall(key);
});
timeline.addEventListener('keydown', (event) => {
  if (event.key !== 'Enter' && event.key !== ' ') return;
  const key = (event.target as HTMLElement).closest<HTMLElement>('.row.call')?.dataset['key'];
  if (key === undefined) return;
  event.preventDefault();
  openCall(key);
});
for (const button of document.querySelectorAll<HTMLButtonElement>('[data-filter]')) {
  button.addEventListener('click', () => {
    state.filter = (button.dataset['filter'] ?? 'all') as CallFilter;
    for (const other of document.querySelectorAll<HTMLButtonElement>('[data-filter]')) {
      other.setAttribute('aria-pressed', String(other === button));
    }
    timeline.scrollTop = 0;
    relayout();
  });
}
toolFilter.addEventListener('input', () => {
  state.tool = toolFilter.value.trim();
  relayout();
});
runSelect.addEventListener('change', () => selectRun(Number(runSelect.value)));
element<HTMLInputElement>('file').addEventListener('change', async (event) => {
  const file = (event.target as HTMLInputElement).files?.[0];
  if (file !== undefined) load(await file.text(), file.name);
});
filesSelect.addEventListener('change', () => {
  if (filesSelect.value !== '') void fetchTrace(filesSelect.value);
});

async function fetchTrace(url: string): Promise<void> {
  try {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
    load(await response.text(), decodeURIComponent(url.split('/').at(-1) ?? url));
  } catch (error) {
    summary.textContent = `Could not load ${url}: ${(error as Error).message}`;
  }
}

/** `?trace=<url>` opens that file; a `toolcircuit trace serve` folder lists its files at `files/`. */
async function start(): Promise<void> {
  const trace = new URLSearchParams(location.search).get('trace');
  if (trace !== null) {
    await fetchTrace(trace);
    return;
  }
  try {
    const response = await fetch('files/', { headers: { accept: 'application/json' } });
    if (!response.ok) return;
    const names = (await response.json()) as string[];
    if (!Array.isArray(names) || names.length === 0) return;
    filesSelect.innerHTML = `<option value="">Choose a file of the folder…</option>${names
      .map((name) => `<option value="files/${encodeURIComponent(name)}">${escapeHtml(name)}</option>`)
      .join('')}`;
    filesSelect.hidden = false;
  } catch {
    // A static copy of the page, without a server behind it: the file picker is the way in.
  }
}

void start();
