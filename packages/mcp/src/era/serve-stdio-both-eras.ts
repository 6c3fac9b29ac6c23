import type {
  JSONRPCMessage,
  MessageExtraInfo,
  Server,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { McpEra } from './protocol-mode.js';

/** A stdio connection being served; `onclose` is called once when it ends (the client closed its end). */
export interface StdioServing {
  onclose?: (() => void) | undefined;
  close(): Promise<void>;
}

/**
 * Serves one stdio connection in whichever era the client opens it with (the SDK's `serveStdio` decides from
 * the opening message and pins one server from the factory for the connection's life).
 */
export async function serveStdioBothEras(
  factory: (era: McpEra) => Server,
  transport: Transport,
): Promise<StdioServing> {
  const serving: StdioServing = {
    close: async () => {
      await handle.close();
    },
  };
  const observed = new ObservedTransport(transport, () => serving.onclose?.());
  const handle = serveStdio(({ era }) => factory(era), { transport: observed });
  return serving;
}

/** A transport passed through as it is, telling its owner when it closed (the SDK takes its `onclose`). */
class ObservedTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined;
  readonly #inner: Transport;

  constructor(inner: Transport, closed: () => void) {
    this.#inner = inner;
    inner.onclose = () => {
      this.onclose?.();
      closed();
    };
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => this.onmessage?.(message, extra);
  }

  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.#inner.send(message, options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}
