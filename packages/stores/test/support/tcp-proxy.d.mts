export interface TcpProxy {
  readonly port: number;
  /** Nothing gets through either way; connections (and new ones) stay open, and what was sent waits. */
  stall(): void;
  /** Traffic flows again, what waited first. */
  heal(): void;
  /** Destroys every connection now. */
  cutAll(): void;
  /**
   * The next COMMIT: `after-commit` forwards it and cuts the connection when the server answers (it did
   * commit; the client never learns it); `before-commit` cuts it without forwarding (the server rolls back).
   */
  cutAtNextCommit(when: 'after-commit' | 'before-commit'): Promise<void>;
  close(): Promise<void>;
}

export function startTcpProxy(targetPort: number): Promise<TcpProxy>;
