/**
 * The wire protocol a call travelled over, when it did: an imported tool reached as a client (an MCP
 * server's tool), or a served call answered as a server. Plain JSON, journaled with the call, so an audit
 * can tell which revision of the protocol carried it (and therefore which confirmation flow applied).
 */
export interface CallProtocol {
  /** The protocol's name, e.g. `mcp`. */
  readonly name: string;
  /** The revision the two sides negotiated, e.g. `2026-07-28` or `2025-11-25`. */
  readonly revision: string;
  /** `client`: this process called the peer's tool; `server`: the peer called this process's tool. */
  readonly role: 'client' | 'server';
  /** The peer's short name, when the application gave it one (an imported server's `name`). */
  readonly peer?: string;
}
