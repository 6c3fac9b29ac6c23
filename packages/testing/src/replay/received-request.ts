import type { JsonValue } from '@toolcircuit/core';

/** What the replay server saw for one request, for assertions on outgoing bodies. */
export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: JsonValue | undefined;
  /** Size of the body as it came over the wire, in bytes (0 without a body). */
  readonly bodyBytes: number;
}

/** A request that did not match the cassette; the server answered 599 and kept going. */
export interface ReplayMismatch {
  readonly index: number;
  readonly reason: string;
  /** What to change, when the kind of mismatch says (stream vs not, another model in the path…). */
  readonly hint?: string;
  readonly received: ReceivedRequest;
}
