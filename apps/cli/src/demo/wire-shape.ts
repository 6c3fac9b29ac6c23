import type { JsonValue } from '@toolcircuit/core';

/** One backend's first exchange, as the replay server saw it and answered it. */
export interface WireExchange {
  /** The first request body the SDK sent (it declares the tools). */
  readonly request: JsonValue | undefined;
  /** The answer to it (it holds the first tool call). */
  readonly response: JsonValue | undefined;
  /** The second request body (it carries the results back). */
  readonly reply: JsonValue | undefined;
}

/** Where a piece of the turn sits in a body, and its shape there: `content[1]  {type: "tool_use", id, …}`. */
export interface WirePlace {
  readonly path: string;
  readonly shape: string;
}

export interface WireShape {
  readonly tools?: WirePlace;
  readonly call?: WirePlace;
  readonly stop?: WirePlace;
  readonly result?: WirePlace;
}

type Path = readonly (string | number)[];

/**
 * Finds, in the traffic itself, where each provider puts the parts of one turn: the tool declaration, the
 * model's call, why the turn stopped, and the result sent back. Nothing here knows a provider: it looks for
 * the tool's name, its arguments and the call's id in the bodies, so what it prints is what went over the wire.
 */
export function wireShape(exchange: WireExchange, tool: string, input: JsonValue): WireShape {
  const shape: { -readonly [K in keyof WireShape]: WireShape[K] } = {};
  const marks = { tool, input };
  const declared = elementAround(
    exchange.request,
    findFirst(exchange.request, (value) => value === tool),
  );
  if (declared !== undefined) shape.tools = place(exchange.request, declared, marks);
  const callPath = elementAround(
    exchange.response,
    findFirst(exchange.response, (value) => value === tool),
  );
  if (callPath !== undefined) {
    const call = valueAt(exchange.response, callPath);
    shape.call = place(exchange.response, callPath, marks);
    const ids = idsOf(call);
    const resultPath = resultElement(exchange.reply, ids.length > 0 ? ids : [tool], { input, call }, declared?.[0]);
    if (resultPath !== undefined) shape.result = place(exchange.reply, resultPath, { ...marks, id: ids[0] });
  }
  const stopPath = findFirst(
    exchange.response,
    (value, key) => typeof value === 'string' && /^(stop_reason|finish_reason|finishReason|status)$/.test(String(key)),
  );
  if (stopPath !== undefined) {
    shape.stop = { path: formatPath(stopPath), shape: JSON.stringify(valueAt(exchange.response, stopPath)) };
  }
  return shape;
}

function place(root: JsonValue | undefined, path: Path, marks: Marks): WirePlace {
  const message = messageAround(root, path);
  return { path: formatPath(path) + message, shape: describe(valueAt(root, path), marks, 0) };
}

interface Marks {
  readonly tool: string;
  readonly input: JsonValue;
  readonly id?: string | undefined;
}

/** ` (in a "user" message)` when the element sits inside a message that has a role. */
function messageAround(root: JsonValue | undefined, path: Path): string {
  for (let end = path.length - 1; end > 0; end -= 1) {
    const value = valueAt(root, path.slice(0, end));
    if (isObject(value) && typeof value['role'] === 'string' && end < path.length) {
      return ` (in the "${value['role']}" message)`;
    }
  }
  return '';
}

/** `{type: "tool_use", id, name, input: {…}}`: literal kinds kept, the turn's own values named by their key. */
function describe(value: JsonValue | undefined, marks: Marks, depth: number): string {
  if (isObject(value)) {
    // A JSON Schema says enough by its type (Gemini's is "OBJECT", the others' "object").
    if ('properties' in value) return `{type: ${JSON.stringify(value['type'])}, …}`;
    if (depth > 2) return '{…}';
    const fields = Object.entries(value).map(([key, field]) => {
      if (field === marks.tool || field === marks.id || /(^|_)id$|Id$/.test(key)) return key;
      if (sameJson(field, marks.input)) return `${key}: {…}`;
      if (typeof field === 'string' && parsesTo(field, marks.input)) return `${key}: "{…}" (JSON text)`;
      if (typeof field === 'string') return field.length > 24 ? `${key}: "…"` : `${key}: ${JSON.stringify(field)}`;
      return `${key}: ${describe(field, marks, depth + 1)}`;
    });
    return `{${fields.join(', ')}}`;
  }
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[${describe(value[0], marks, depth + 1)}…]`;
  return JSON.stringify(value) ?? 'undefined';
}

/** Every id-like string of the call (Responses has an item `id` and a `call_id`; the result names the latter). */
function idsOf(call: JsonValue | undefined): string[] {
  const found: Path[] = [];
  walk(call, (value, key) => typeof value === 'string' && /(^|_)id$/.test(String(key)), [], 'all', found);
  return found.map((path) => valueAt(call, path)).filter((value): value is string => typeof value === 'string');
}

/**
 * The element of the next request that carries the result: the first one naming the call (by one of its
 * ids, or by the tool name when the wire has no ids) that is neither the tool declaration nor an echo of
 * a call (which holds the arguments, or has the call's own fields).
 */
function resultElement(
  reply: JsonValue | undefined,
  names: readonly string[],
  echo: { readonly input: JsonValue; readonly call: JsonValue | undefined },
  declarationKey: string | number | undefined,
): Path | undefined {
  const callKeys = isObject(echo.call) ? Object.keys(echo.call).sort().join() : undefined;
  const mentions: Path[] = [];
  walk(reply, (value) => typeof value === 'string' && names.includes(value), [], 'all', mentions);
  for (const mention of mentions) {
    if (declarationKey !== undefined && mention[0] === declarationKey) continue;
    const element = elementAround(reply, mention);
    if (element === undefined) continue;
    const value = valueAt(reply, element);
    if (holdsInput(value, echo.input)) continue;
    // Another call echoed back (same fields as the call, other arguments) is not a result either.
    if (isObject(value) && Object.keys(value).sort().join() === callKeys) continue;
    return element;
  }
  return undefined;
}

function holdsInput(value: JsonValue | undefined, input: JsonValue): boolean {
  const test = (node: JsonValue) => sameJson(node, input) || (typeof node === 'string' && parsesTo(node, input));
  return walk(value, test, [], 'first') !== undefined;
}

/** The path cut just after its last array index: the element of a list that holds the match. */
function elementAround(root: JsonValue | undefined, path: Path | undefined): Path | undefined {
  if (path === undefined) return undefined;
  let cut = -1;
  for (const [index, segment] of path.entries()) if (typeof segment === 'number') cut = index;
  const element = cut < 0 ? path.slice(0, -1) : path.slice(0, cut + 1);
  // A part that only wraps the call (Gemini's `{functionCall: {...}}`) says more through its inside.
  const value = valueAt(root, element);
  if (isObject(value) && Object.keys(value).length === 1) {
    const [only] = Object.keys(value);
    if (only !== undefined && isObject(value[only])) return [...element, only];
  }
  return element;
}

function findFirst(
  root: JsonValue | undefined,
  test: (value: JsonValue, key: string | number) => boolean,
): Path | undefined {
  return walk(root, test, [], 'first');
}

function walk(
  value: JsonValue | undefined,
  test: (value: JsonValue, key: string | number) => boolean,
  path: (string | number)[],
  which: 'first' | 'all',
  found: Path[] = [],
): Path | undefined {
  if (value === undefined) return undefined;
  const key = path.at(-1) ?? '';
  if (test(value, key)) {
    if (which === 'first') return [...path];
    found.push([...path]);
  }
  const children: [string | number, JsonValue][] = Array.isArray(value)
    ? value.map((child, index) => [index, child])
    : isObject(value)
      ? Object.entries(value)
      : [];
  for (const [childKey, child] of children) {
    const inner = walk(child, test, [...path, childKey], which, found);
    if (inner !== undefined && which === 'first') return inner;
  }
  return undefined;
}

function valueAt(root: JsonValue | undefined, path: Path): JsonValue | undefined {
  let value = root;
  for (const segment of path) {
    if (typeof segment === 'number') value = Array.isArray(value) ? value[segment] : undefined;
    else value = isObject(value) ? value[segment] : undefined;
  }
  return value;
}

function formatPath(path: Path): string {
  let text = '';
  for (const segment of path)
    text += typeof segment === 'number' ? `[${segment}]` : `${text === '' ? '' : '.'}${segment}`;
  return text === '' ? '(body)' : text;
}

function isObject(value: JsonValue | undefined): value is { readonly [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sameJson(a: JsonValue | undefined, b: JsonValue): boolean {
  return a !== undefined && typeof a === 'object' && JSON.stringify(a) === JSON.stringify(b);
}

function parsesTo(text: string, value: JsonValue): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}
