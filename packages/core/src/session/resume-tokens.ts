/**
 * Where resume tokens are spent (`PausedRun.resumeToken`), so that each paused run is resumed once. The
 * session's confirmation store is one when it has `spendResumeToken` (`InMemoryConfirmations` has); a
 * durable engine whose own run store already consumed the pause passes its own to `resumeLoop`.
 */
export interface ResumeTokenStore {
  /**
   * Records that the paused run holding `token` is being resumed, and returns false when it was recorded
   * before (that paused run was resumed already). Must be atomic where it is shared (a unique key in a
   * database): of two resumes racing, one gets true.
   */
  spendResumeToken(token: string): boolean | Promise<boolean>;
}
