import type { ContextFigures } from './measure-context.js';

const number = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** The `context` phase as a Markdown section. */
export function formatContextReport(figures: ContextFigures): string {
  const { cost } = figures;
  const rows = figures.runs.map(
    (run) =>
      `| ${run.backend} | ${number(run.maxTokens)} | ${number(run.maxBytes / 1024, 1)} | ${run.overBudget} | ${number(run.unshapedTokens)} | ${run.clearings} | ${number(run.cpuMs / (run.turns + 1), 1)} |`,
  );
  return [
    `## Context policy: ${figures.runs[0]?.turns ?? 0} turns of 20 KB results under ${number(figures.budget)} tokens`,
    '',
    `Each backend through its adapter and official SDK against the replay server on 127.0.0.1 (synthetic responses), \`contextPolicy: { maxTokens: ${number(figures.budget)} }\` and nothing else. The server counts each request body it receives with OpenAI's o200k_base tokenizer (\`gpt-tokenizer\`; the JSON keys and escapes count too) and reports the count as the answer's input tokens, as a provider reports its own. Load average ${figures.load}.`,
    '',
    '| backend | largest request (tokens) | largest request (KB) | requests over budget | last request unshaped (estimate) | clearings | CPU ms per turn (whole run) |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    `The policy's own cost, ${cost.turns} turns of 20 KB results through \`runLoop\` and an in-process model (no adapter, no socket), CPU time, median of ${cost.rounds} alternating rounds: **${number(cost.policyUs, 1)} µs per turn** over the loop's own ${number(cost.loopUs, 1)} µs; the hand-written floor (sum the text lengths of every message each request, replace the oldest results with a fixed placeholder down to three quarters of the budget, no cache, no provider count) ${number(cost.floorUs, 1)} µs per turn.`,
  ].join('\n');
}
