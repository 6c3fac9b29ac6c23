// Reads a `text/event-stream` answer frame by frame, as a browser's EventSource would parse it.

export interface SseFrame {
  readonly id?: string;
  readonly event: string;
  // biome-ignore lint/suspicious/noExplicitAny: test payloads are asserted field by field.
  readonly data: any;
}

export interface SseReader {
  /** The next frame, or `undefined` once the server closed the stream. */
  next(): Promise<SseFrame | undefined>;
  /** Goes away mid-stream, as a closed tab or a cut connection does. */
  disconnect(): void;
}

export async function openSse(
  base: string,
  path: string,
  { token = 'marie-laptop', lastEventId }: { readonly token?: string; readonly lastEventId?: string } = {},
): Promise<{ readonly response: Response; readonly reader: SseReader }> {
  const controller = new AbortController();
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'text/event-stream' };
  if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
  const response = await fetch(`${base}${path}`, { headers, signal: controller.signal });
  const body = response.body?.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const next = async (): Promise<SseFrame | undefined> => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const text = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const frame = parse(text);
        // A frame without data (a comment) is not an event, as for EventSource.
        if (frame !== undefined) return frame;
        continue;
      }
      const chunk = await body?.read();
      if (chunk === undefined || chunk.done) return undefined;
      buffer += decoder.decode(chunk.value, { stream: true });
    }
  };
  return {
    response,
    reader: {
      next,
      disconnect: () => {
        controller.abort();
      },
    },
  };
}

/** Every frame up to the end of the stream. */
export async function readAll(reader: SseReader): Promise<SseFrame[]> {
  const frames: SseFrame[] = [];
  for (let frame = await reader.next(); frame !== undefined; frame = await reader.next()) frames.push(frame);
  return frames;
}

function parse(text: string): SseFrame | undefined {
  let id: string | undefined;
  let event = 'message';
  const data: string[] = [];
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') id = value;
    else if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return undefined;
  return { ...(id === undefined ? {} : { id }), event, data: JSON.parse(data.join('\n')) };
}
