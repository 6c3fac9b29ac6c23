/**
 * A JSON value as indented text in DOM nodes, with the values at the given JSON Pointers wrapped in <mark>:
 * the highlight follows the exact path the server flagged, not a text search that could mark an equal value
 * elsewhere. Text is only ever set as text nodes (never parsed as HTML).
 */
export function renderJson(value: unknown, flagged: ReadonlySet<string>): DocumentFragment {
  const out = document.createDocumentFragment();
  write(out, value, '', 0, flagged);
  return out;
}

function write(out: Node, value: unknown, pointer: string, depth: number, flagged: ReadonlySet<string>): void {
  const pad = '  '.repeat(depth + 1);
  const close = '  '.repeat(depth);
  if (Array.isArray(value)) {
    if (value.length === 0) {
      text(out, '[]');
      return;
    }
    text(out, '[\n');
    value.forEach((item, index) => {
      text(out, pad);
      write(out, item, `${pointer}/${index}`, depth + 1, flagged);
      text(out, index < value.length - 1 ? ',\n' : '\n');
    });
    text(out, `${close}]`);
    return;
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    if (entries.length === 0) {
      text(out, '{}');
      return;
    }
    text(out, '{\n');
    entries.forEach(([key, item], index) => {
      text(out, `${pad}${JSON.stringify(key)}: `);
      write(out, item, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`, depth + 1, flagged);
      text(out, index < entries.length - 1 ? ',\n' : '\n');
    });
    text(out, `${close}}`);
    return;
  }
  const literal = JSON.stringify(value) ?? 'null';
  if (!flagged.has(pointer)) {
    text(out, literal);
    return;
  }
  const mark = document.createElement('mark');
  mark.dataset['pointer'] = pointer;
  mark.title = `copied from an untrusted source (${pointer})`;
  mark.textContent = literal;
  out.appendChild(mark);
}

function text(out: Node, value: string): void {
  out.appendChild(document.createTextNode(value));
}

/** Text with every occurrence of the given values wrapped in <mark> (longest first where they overlap). */
export function renderMarked(source: string, values: readonly string[]): DocumentFragment {
  const out = document.createDocumentFragment();
  const needles = [...new Set(values.filter((value) => value !== ''))].sort((a, b) => b.length - a.length);
  let at = 0;
  while (at < source.length) {
    let next = -1;
    let needle = '';
    for (const candidate of needles) {
      const found = source.indexOf(candidate, at);
      if (found >= 0 && (next < 0 || found < next)) {
        next = found;
        needle = candidate;
      }
    }
    if (next < 0) break;
    if (next > at) text(out, source.slice(at, next));
    const mark = document.createElement('mark');
    mark.textContent = needle;
    out.appendChild(mark);
    at = next + needle.length;
  }
  if (at < source.length) text(out, source.slice(at));
  return out;
}
