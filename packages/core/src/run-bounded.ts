/**
 * Runs tasks with at most `bound` in flight and returns their results in task order (1 = one after the
 * other). Every task is allowed to finish even if one throws; the first error is rethrown afterwards, so a
 * failure never leaves calls running unobserved behind the caller's back.
 */
export async function runBounded<T>(tasks: readonly (() => Promise<T>)[], bound: number): Promise<T[]> {
  const results = new Array<T>(tasks.length);
  const errors: unknown[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < tasks.length; index = next++) {
      const task = tasks[index];
      if (task === undefined) continue;
      try {
        results[index] = await task();
      } catch (error) {
        errors.push(error);
      }
    }
  };
  const workers = Math.max(1, Math.min(bound, tasks.length));
  await Promise.all(Array.from({ length: workers }, worker));
  if (errors.length > 0) throw errors[0];
  return results;
}
