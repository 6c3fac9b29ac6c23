/**
 * The workflow id of the segment that continues a run after the human decided on the calls of `turn`.
 * Fixed by the run and the turn, so the approval of a turn can start one continuation and only one: a
 * second enqueue under the same id gets the first one back (DBOS's workflow-id idempotency).
 */
export function resumeSegmentId(runId: string, turn: number): string {
  return `${runId}/approved-turn-${turn}`;
}
