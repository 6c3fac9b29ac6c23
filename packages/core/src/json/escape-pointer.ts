/** A key as one segment of a JSON Pointer (RFC 6901): `~` as `~0`, `/` as `~1`. */
export function escapePointer(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}
