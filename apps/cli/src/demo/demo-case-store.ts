/** One case file of the demo. */
export interface DemoCase {
  readonly numero: string;
  readonly title: string;
  status: 'open' | 'closed';
  closingReason?: string;
}

/**
 * The demo's "back office": a few case files in memory, and a count of how many times each tool really
 * ran, so the demo can show that a confirmed irreversible call ran exactly once.
 */
export class DemoCaseStore {
  readonly #cases = new Map<string, DemoCase>();
  readonly #runs = new Map<string, number>();

  constructor(cases: readonly Omit<DemoCase, 'status'>[] = DEMO_CASES) {
    for (const entry of cases) this.#cases.set(entry.numero, { ...entry, status: 'open' });
  }

  find(numero: string): DemoCase | undefined {
    return this.#cases.get(numero);
  }

  delete(numero: string): boolean {
    return this.#cases.delete(numero);
  }

  recordRun(tool: string): void {
    this.#runs.set(tool, (this.#runs.get(tool) ?? 0) + 1);
  }

  /** How many times `tool` actually ran (refused and paused calls do not count). */
  runsOf(tool: string): number {
    return this.#runs.get(tool) ?? 0;
  }
}

export const DEMO_CASES: readonly Omit<DemoCase, 'status'>[] = [
  { numero: 'A-1234', title: 'Water damage claim, 12 rue des Lilas' },
  { numero: 'B-2048', title: 'Change of address request' },
];
