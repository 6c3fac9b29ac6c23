import type { ProfileSummary } from '../measure/summarize-profile.js';
import { formatNumber, formatTable } from './format-table.js';

export function formatProfile(summary: ProfileSummary): string {
  return [
    `Profile: ${summary.file} (${formatNumber(summary.totalMs)} ms of samples, steady state after warm-up)`,
    '',
    formatTable(
      ['owner', 'self ms', '%'],
      summary.owners.slice(0, 8).map((owner) => [owner.owner, formatNumber(owner.selfMs), formatNumber(owner.percent)]),
    ),
    '',
    formatTable(
      ['hot spot (self time)', 'owner', 'self ms', '%'],
      summary.frames.map((frame) => [
        frame.frame,
        frame.owner,
        formatNumber(frame.selfMs),
        formatNumber(frame.percent),
      ]),
    ),
    '',
    formatTable(
      ['toolcircuit core function (incl. builtins, ajv, crypto it calls)', 'ms', '%'],
      summary.core.map((frame) => [frame.frame, formatNumber(frame.selfMs), formatNumber(frame.percent)]),
    ),
  ].join('\n');
}
