/** One dispatched server-sent event, as a browser's EventSource would see it. */
export interface ParsedSseEvent {
  readonly event?: string;
  readonly data: string;
  readonly id?: string;
}

/**
 * Parses an SSE body the way the HTML spec says (LF, CR and CRLF line ends; `data:` lines joined with LF;
 * one optional space after the colon; `:` comments ignored). Unlike the spec, a last event that is not
 * followed by a blank line is kept: summaries of recorded bodies should not lose a truncated final event.
 */
export function parseSse(text: string): ParsedSseEvent[] {
  const events: ParsedSseEvent[] = [];
  let data: string[] = [];
  let event: string | undefined;
  let id: string | undefined;
  const dispatch = () => {
    if (data.length > 0) {
      events.push({
        ...(event === undefined ? {} : { event }),
        data: data.join('\n'),
        ...(id === undefined ? {} : { id }),
      });
    }
    data = [];
    event = undefined;
  };
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === '') {
      dispatch();
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id') id = value;
  }
  dispatch();
  return events;
}
