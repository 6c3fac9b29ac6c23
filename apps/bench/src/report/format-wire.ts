import type { StepCost } from '../wire/measure-step-costs.js';
import type { AdapterWireCost, WireCostReport } from '../wire/measure-wire-cost.js';
import { BODY_HANDLING } from '../wire/wire-adapters.js';
import { formatNumber, formatRatio, formatTable } from './format-table.js';

export function formatWire(report: WireCostReport): string {
  return [formatServerRuns(report.adapters), '', formatStepCosts(report.steps)].join('\n');
}

function formatServerRuns(adapters: readonly AdapterWireCost[]): string {
  const rows = adapters.map((row) => [
    row.adapter,
    `K=${row.calls} S=${row.steps}`,
    formatNumber(row.first10Us),
    formatNumber(row.last10Us),
    formatNumber(row.last10Us / row.first10Us),
    formatNumber(row.firstBodyBytes / 1024),
    formatNumber(row.lastBodyBytes / 1024),
    formatNumber(row.usPerKb),
  ]);
  return [
    '## Wire cost: real adapters and SDKs against an instant server on 127.0.0.1 (µs per step)',
    '',
    formatTable(
      ['adapter', 'run', 'first 10', 'last 10', 'last/first', 'first body KB', 'last body KB', 'CPU µs per extra KB'],
      rows,
    ),
    '',
    ...adapters.map((row) => {
      const growth = row.last10Us / row.first10Us;
      const size = `${formatNumber(row.firstBodyBytes / 1024)} KB → ${formatNumber(row.lastBodyBytes / 1024)} KB`;
      const measured =
        growth >= 1.3
          ? `the step cost grows ${formatRatio(growth)} as the body grows ${size} (≈ ${formatNumber(row.usPerKb)} CPU µs per extra KB of this process, fitted over every step: building and sending it; the server reads it in another process)`
          : `flat within noise (${formatRatio(growth)}) while the body grows ${size}`;
      return `- ${row.adapter}: ${measured}; ${BODY_HANDLING[row.body]}.`;
    }),
  ].join('\n');
}

/**
 * The per-step table, then one line per row saying what was measured: the extra cost per extra KB of history
 * from the shortest to the longest point, against what serialising a whole body from scratch costs per KB.
 */
function formatStepCosts(steps: readonly StepCost[]): string {
  const rows = steps.map((row) => [
    row.row,
    String(row.historySteps),
    formatNumber(row.bodyBytes / 1024),
    formatNumber(row.us),
    formatNumber(row.us / (row.bodyBytes / 1024)),
    String(row.samples),
  ]);
  const reference = longestOf(steps.filter((row) => row.kind === 'reference'));
  const referencePerKb = reference === undefined ? undefined : reference.us / (reference.bodyBytes / 1024);
  const measured = steps.filter((row) => row.kind === 'model' || row.kind === 'adapter');
  const labels = [...new Set(measured.map((row) => row.row))];
  return [
    'Request cost of one step, without a socket (median µs): the earlier steps already sent (converted, text cached), ' +
      'each sample adds one new step (fresh assistant + tool messages). `model.generate` rows go through the adapter ' +
      "and its SDK, the SDK's fetch answering at once in this process after encoding the body to bytes as a real " +
      'fetch does (google: the global fetch, since createGoogleModel takes none). The reference row is what ' +
      'serialising a whole body from scratch costs; the floor row what encoding that text to bytes costs, which ' +
      'every model row pays as a real fetch would.',
    '',
    formatTable(['request path', 'history steps', 'body KB', 'µs', 'µs per KB', 'samples'], rows),
    '',
    ...labels.map((label) =>
      describeRow(
        steps.filter((row) => row.row === label),
        referencePerKb,
      ),
    ),
  ].join('\n');
}

function describeRow(points: readonly StepCost[], referencePerKb: number | undefined): string {
  const shortest = points.reduce((a, b) => (b.historySteps < a.historySteps ? b : a));
  const longest = longestOf(points) ?? shortest;
  const parts: string[] = [];
  const extraKb = (longest.bodyBytes - shortest.bodyBytes) / 1024;
  if (extraKb > 0) {
    const slope = (longest.us - shortest.us) / extraKb;
    const versus =
      referencePerKb === undefined
        ? ''
        : `, ${relativeTo(slope / referencePerKb)} the reference's ${formatNumber(referencePerKb)} µs per KB`;
    parts.push(
      `${shortest.historySteps} → ${longest.historySteps} steps: ≈ ${formatNumber(slope)} µs per extra KB of body${versus}`,
    );
  }
  if (referencePerKb !== undefined) {
    const fromScratch = referencePerKb * (longest.bodyBytes / 1024);
    parts.push(
      `at ${longest.historySteps} steps ${formatNumber(longest.us)} µs, where serialising its ${formatNumber(longest.bodyBytes / 1024)} KB from scratch alone would take ≈ ${formatNumber(fromScratch)} µs`,
    );
  }
  const fact = longest.body === undefined ? '' : `; ${BODY_HANDLING[longest.body]}`;
  return `- ${longest.row}: ${parts.join('; ')}${fact}.`;
}

function relativeTo(ratio: number): string {
  return ratio < 1 ? `${Math.round(Math.max(ratio, 0) * 100)}% of` : `${formatRatio(ratio)}`;
}

function longestOf(rows: readonly StepCost[]): StepCost | undefined {
  let longest: StepCost | undefined;
  for (const row of rows) if (longest === undefined || row.historySteps > longest.historySteps) longest = row;
  return longest;
}
