import { createToolSearchIndex } from '@toolcircuit/core';
import { searchSets } from './search-sets.js';
import { sizedSet } from './sized-catalogue.js';

/** The search's cost at 2,500 tools: building the index, and one query. */
export interface SearchSpeed {
  readonly tools: number;
  readonly queries: number;
  /** Medians over the rounds, CPU time of this process (user + system) and wall time. */
  readonly buildCpuMs: number;
  readonly buildWallMs: number;
  readonly queryCpuMs: number;
  readonly queryWallMs: number;
  readonly rounds: number;
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

function timed(run: () => void): { cpu: number; wall: number } {
  const cpu = process.cpuUsage();
  const wall = performance.now();
  run();
  const used = process.cpuUsage(cpu);
  return { cpu: (used.user + used.system) / 1000, wall: performance.now() - wall };
}

/**
 * Index build and query cost over the 2,500-tool catalogue of StableToolBench's held-out G1 requests (the
 * largest real catalogue here), every held-out request as a query. After one warm-up round (the first build
 * of a process also compiles the code), the median of `rounds`.
 */
export function measureSearchSpeed(rounds = 5): SearchSpeed {
  const sets = searchSets();
  const set = sets.find((candidate) => candidate.source === 'StableToolBench' && candidate.split === 'test');
  if (set === undefined) throw new Error('no StableToolBench test set');
  const tools = sizedSet(set, 2_500).tools;
  const queries = sets
    .filter((candidate) => candidate.split === 'test')
    .flatMap((candidate) => candidate.questions.map((question) => question.queries[0] ?? ''));
  const builds: { cpu: number; wall: number }[] = [];
  const passes: { cpu: number; wall: number }[] = [];
  for (let round = 0; round <= rounds; round += 1) {
    let index = createToolSearchIndex([]);
    const build = timed(() => {
      index = createToolSearchIndex(tools);
    });
    const pass = timed(() => {
      for (const query of queries) index.search(query, 10);
    });
    if (round === 0) continue;
    builds.push(build);
    passes.push(pass);
  }
  return {
    tools: tools.length,
    queries: queries.length,
    buildCpuMs: median(builds.map((build) => build.cpu)),
    buildWallMs: median(builds.map((build) => build.wall)),
    queryCpuMs: median(passes.map((pass) => pass.cpu)) / queries.length,
    queryWallMs: median(passes.map((pass) => pass.wall)) / queries.length,
    rounds,
  };
}
