/** Median of a non-empty list (the mean of the two middle values for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? Number.NaN;
  if (sorted.length % 2 === 1) return upper;
  return ((sorted[middle - 1] ?? upper) + upper) / 2;
}

export function mean(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}

/** The gaps between consecutive timestamps: one per step. */
export function intervals(stamps: readonly number[]): number[] {
  const gaps: number[] = [];
  for (let index = 1; index < stamps.length; index += 1) {
    gaps.push((stamps[index] ?? 0) - (stamps[index - 1] ?? 0));
  }
  return gaps;
}
