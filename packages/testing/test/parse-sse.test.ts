import { describe, expect, it } from 'vitest';
import { parseSse } from '../src/index.js';

describe('parseSse', () => {
  it('reads LF, CRLF and CR line ends alike', () => {
    const expected = [{ event: 'a', data: '1' }, { data: '2' }];
    expect(parseSse('event: a\ndata: 1\n\ndata: 2\n\n')).toEqual(expected);
    expect(parseSse('event: a\r\ndata: 1\r\n\r\ndata: 2\r\n\r\n')).toEqual(expected);
    expect(parseSse('event: a\rdata: 1\r\rdata: 2\r\r')).toEqual(expected);
  });

  it('joins data lines with LF, strips one space after the colon only, and skips comments', () => {
    expect(parseSse(': keep-alive\ndata:x\ndata:  y\nid: 7\n\n')).toEqual([{ data: 'x\n y', id: '7' }]);
  });

  it('drops events without data and keeps a final event that lacks its blank line', () => {
    expect(parseSse('event: ping\n\ndata: {"last":true}')).toEqual([{ data: '{"last":true}' }]);
  });

  it('keeps trailing spaces inside data, as recorded streams carry them', () => {
    expect(parseSse('data: {"type":"ping"}   \n\n')).toEqual([{ data: '{"type":"ping"}   ' }]);
  });
});
