import { fileURLToPath } from 'node:url';
import type { CorpusCatalogueReport } from './corpus-catalogue-child.js';
import { spawnNode } from './spawn-node.js';
import { median } from './stats.js';

/** The child's figures (medians over the samples, each in a fresh process), and the peer's one run. */
export interface CorpusCatalogueCost extends Omit<CorpusCatalogueReport, 'peerMs' | 'peerCpuMs' | 'peerRssGrowthMb'> {
  readonly samples: number;
  /** One sample: ajv compiling every accepted schema at registration, as createCatalogue did before. */
  readonly peer: CorpusCatalogueReport | undefined;
}

const CHILD = fileURLToPath(new URL('./corpus-catalogue-child.js', import.meta.url));

/** `createCatalogue` over the whole corpus, `samples` fresh processes one after the other, then the peer once. */
export async function measureCorpusCatalogue(samples: number, cwd: string): Promise<CorpusCatalogueCost> {
  const reports: CorpusCatalogueReport[] = [];
  for (let sample = 0; sample < samples; sample += 1) {
    reports.push(JSON.parse((await spawnNode([CHILD], cwd)).stdout) as CorpusCatalogueReport);
  }
  const peer = JSON.parse((await spawnNode([CHILD, '--peer'], cwd)).stdout) as CorpusCatalogueReport;
  const first = reports[0];
  if (first === undefined) throw new Error('no corpus catalogue sample');
  const of = (pick: (report: CorpusCatalogueReport) => number) => median(reports.map(pick));
  return {
    samples,
    tools: first.tools,
    loaded: first.loaded,
    refused: first.refused,
    coldMs: of((report) => report.coldMs),
    coldCpuMs: of((report) => report.coldCpuMs),
    warmMs: of((report) => report.warmMs),
    warmCpuMs: of((report) => report.warmCpuMs),
    rssGrowthMb: of((report) => report.rssGrowthMb),
    peakRssMb: of((report) => report.peakRssMb),
    peer,
  };
}
