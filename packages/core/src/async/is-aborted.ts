/** A function, not an inline check: TypeScript would otherwise assume the signal cannot change across an await. */
export function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
