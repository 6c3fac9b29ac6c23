import { isDerived, judgeRecallGoal } from '../../search/format-held-out-report.js';
import type { GoalRow } from './goal-row.js';
import { NOT_MEASURED } from './goal-row.js';

const percent = (value: number) => `${(value * 100).toFixed(1)} %`;

/**
 * The tool search's rows, judged on the `search` phase: recall@5 on every held-out set (the data's own
 * queries; derived per-clause queries are reported but not judged) at 600 tools with the lexical search
 * alone, and its speed at 2,500 tools on CPU time. The tuning sets never count.
 */
export const toolSearchRecallGoal: GoalRow = {
  order: 70,
  path: 'tool search, lexical alone, 600 tools, every held-out set (StableToolBench instruction files, API-Bank, LiveMCPBench, MCP-Bench)',
  goal: 'recall@5 ≥ 85 % on every set',
  phases: ['search'],
  judge: (results) => {
    const rows = results.search?.rows.filter((row) => row.split === 'test' && row.size === 600 && !isDerived(row));
    if (rows === undefined || rows.length === 0) return NOT_MEASURED;
    const failing = rows.filter((row) => judgeRecallGoal(row) === 'FAIL');
    const worst = [...rows].sort((a, b) => a.recall[5] - b.recall[5])[0];
    return {
      measured:
        `${rows.length - failing.length} of ${rows.length} sets pass; ` +
        `worst ${worst === undefined ? '–' : `${percent(worst.recall[5])} (${worst.label})`}`,
      pass: failing.length === 0,
      peer: `name match: ${rows.map((row) => percent(row.nameMatchRecall5)).join(' · ')}`,
    };
  },
};

export const toolSearchQueryGoal: GoalRow = {
  order: 71,
  path: 'tool search, one query at 2,500 tools',
  goal: '≤ 2 ms',
  phases: ['search'],
  judge: (results) => {
    const speed = results.search?.speed;
    if (speed === undefined) return NOT_MEASURED;
    return {
      measured: `${speed.queryCpuMs.toFixed(3)} ms CPU (wall ${speed.queryWallMs.toFixed(3)}), median of ${speed.rounds} passes over ${speed.queries} queries`,
      pass: speed.queryCpuMs <= 2,
      peer: '',
    };
  },
};

export const toolSearchBuildGoal: GoalRow = {
  order: 72,
  path: 'tool search, index build',
  goal: '≤ 100 ms per 1,000 tools',
  phases: ['search'],
  judge: (results) => {
    const speed = results.search?.speed;
    if (speed === undefined) return NOT_MEASURED;
    const per1000 = (speed.buildCpuMs * 1000) / speed.tools;
    return {
      measured: `${per1000.toFixed(1)} ms CPU per 1,000 (wall ${((speed.buildWallMs * 1000) / speed.tools).toFixed(1)}); ${speed.tools} tools in ${speed.buildCpuMs.toFixed(0)} ms`,
      pass: per1000 <= 100,
      peer: '',
    };
  },
};
