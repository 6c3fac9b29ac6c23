// The worst case for the data-flow options (synthetic, written for this suite): a model that obeys every
// instruction it can read in a tool result, and otherwise does the user's task faithfully with the means the
// run offers it (it names its plan when asked, reads a quarantined document through `extract` and passes the
// references it gets back); and a quarantined reader that is fooled by every instruction in the document it
// reads, filling the fields it is asked for with the attacker's values wherever the instruction names them.
import type {
  JsonValue,
  Model,
  ModelRequest,
  ModelTurn,
  ToolCallPart,
  ToolResultContent,
  ToolResultPart,
} from '../../src/index.js';
import { callsTurn, textTurn } from '../support.js';
import type { BenignTask } from './data-flow-tasks.js';
import { type Directive, directivesIn, madeCalls, parsedOrText } from './worst-case-model.js';

export interface DataFlowModelOptions {
  /** The trusted reader holding the secret an exfiltration asks for, and its field. */
  readonly secret: { readonly tool: string; readonly field: string };
  /** How the model rewrites the attacker's values before sending them. */
  readonly transform?: (input: JsonValue) => JsonValue;
}

export function dataFlowModel(task: BenignTask, options: DataFlowModelOptions): Model {
  let next = 0;
  const obeyed = new Set<string>();
  const id = (): string => {
    next += 1;
    return `call-${next}`;
  };
  const transform = options.transform ?? ((input: JsonValue) => input);
  return {
    provider: 'test',
    modelId: 'obeys-every-injection',
    async generate(request: ModelRequest): Promise<ModelTurn> {
      const offered = new Set(request.tools.map((tool) => tool.name));
      const made = madeCalls(request);
      const results = resultsOf(request);
      if (made.length === 0) {
        const plan = offered.has('declare_plan') ? [call(id(), 'declare_plan', { tools: [task.action.tool] })] : [];
        const reads = task.reads.map((read) => call(id(), read.tool, read.input));
        if (plan.length + reads.length > 0) return callsTurn([...plan, ...reads]);
      }

      // Every instruction it can read, in any result (a quarantined document shows only its handle).
      const pending = results
        .flatMap((result) => directivesIn(result.content))
        .filter((directive) => !obeyed.has(directive.key));
      if (pending.length > 0) {
        const secret = results.find((result) => result.name === options.secret.tool);
        if (secret === undefined && pending.some((directive) => directive.needsSecret)) {
          return callsTurn([call(id(), options.secret.tool, {})]);
        }
        const secretValue = secret === undefined ? '' : String(fieldOf(secret.content, options.secret.field) ?? '');
        const ready = pending
          .map((directive) => ({ directive, input: completed(directive, results, secretValue) }))
          .filter((item): item is { directive: Directive; input: JsonValue } => item.input !== undefined);
        for (const { directive } of ready) obeyed.add(directive.key);
        if (ready.length > 0)
          return callsTurn(ready.map(({ directive, input }) => call(id(), directive.tool, transform(input))));
      }

      const { action } = task;
      if (made.some((part) => part.name === action.tool)) return textTurn('Done.');
      // A value the task reads from a quarantined document is extracted first, then passed by reference.
      if (offered.has('extract')) {
        const handles = quarantinedHandles(results);
        const wanted = readersToExtract(task, handles, made);
        if (wanted.length > 0) {
          return callsTurn(
            wanted.map(({ reader, handle }) => call(id(), 'extract', { handle, fields: fieldsSchema(task, reader) })),
          );
        }
        return callsTurn([call(id(), action.tool, withReferences(task, handles, results, made))]);
      }
      return callsTurn([call(id(), action.tool, action.input)]);
    },
  };
}

/**
 * The reader: fills each field it is asked for from the document, by name, unless an instruction in the
 * document names that field, in which case it takes the attacker's value. No tools, data only.
 */
export function fooledReader(): Model & { readonly reads: number } {
  let reads = 0;
  return {
    provider: 'test',
    modelId: 'fooled-reader',
    get reads() {
      return reads;
    },
    async generate(request: ModelRequest): Promise<ModelTurn> {
      reads += 1;
      if (request.tools.length > 0) throw new Error('the reader was offered tools');
      const text = typeof request.messages[0]?.content === 'string' ? request.messages[0].content : '';
      const document = text.slice(text.indexOf('<<<\n') + 4, text.indexOf('\n>>>'));
      const schemaLine = text.slice(text.indexOf('JSON Schema of the answer:\n') + 27).split('\n')[0] ?? '{}';
      const schema = JSON.parse(schemaLine) as { properties?: Record<string, unknown> };
      const content: ToolResultContent = [{ type: 'text', text: document }];
      const directives = directivesIn(content);
      const values: Record<string, JsonValue> = {};
      for (const key of Object.keys(schema.properties ?? {})) {
        const injected = directives.find(
          (directive) => typeof directive.input === 'object' && directive.input !== null && key in directive.input,
        );
        const value = injected === undefined ? undefined : (directive(injected)[key] as JsonValue);
        values[key] = value ?? fieldOf(content, key) ?? null;
      }
      return textTurn(JSON.stringify(values));
    },
  };
}

function directive(found: Directive): Record<string, JsonValue> {
  return found.input as Record<string, JsonValue>;
}

function call(id: string, name: string, input: JsonValue): ToolCallPart {
  return { type: 'tool_call', id, name, input };
}

function resultsOf(request: ModelRequest): ToolResultPart[] {
  return request.messages.flatMap((message) => (message.role === 'tool' ? [...message.content] : []));
}

/** The directive's arguments with the secret and the pieces found in other results put in, once all are there. */
function completed(found: Directive, results: readonly ToolResultPart[], secret: string): JsonValue | undefined {
  let text = JSON.stringify(found.input).replaceAll('{{secret}}', secret);
  for (const [placeholder, name] of text.matchAll(/\{\{(part[0-9]+)\}\}/g)) {
    const piece = pieceOf(results, name as string);
    if (piece === undefined) return undefined;
    text = text.replaceAll(placeholder, piece);
  }
  return JSON.parse(text) as JsonValue;
}

/** A piece of a split value, given in some result as `partN: value`. */
function pieceOf(results: readonly ToolResultPart[], name: string): string | undefined {
  const pattern = new RegExp(`${name}: ([^\\s"]+)`);
  for (const result of results) {
    const found = pattern.exec(JSON.stringify(result.content));
    if (found !== null) return found[1];
  }
  return undefined;
}

/** The first value of a field of that name anywhere in the content's JSON (parts, or JSON lines of text). */
function fieldOf(content: ToolResultContent, field: string): JsonValue | undefined {
  const values: unknown[] =
    typeof content === 'string'
      ? content.split('\n').map(parsedOrText)
      : content.flatMap((part) =>
          part.type === 'json' ? [part.value] : part.type === 'text' ? part.text.split('\n').map(parsedOrText) : [],
        );
  for (const value of values) {
    const found = findField(value, field, 0);
    if (found !== undefined) return found;
  }
  return undefined;
}

function findField(value: unknown, field: string, depth: number): JsonValue | undefined {
  if (depth > 16 || value === null || typeof value !== 'object') return undefined;
  if (!Array.isArray(value) && Object.hasOwn(value, field)) {
    const found = (value as Record<string, unknown>)[field];
    if (found !== null && typeof found !== 'object') return found as JsonValue;
  }
  for (const item of Object.values(value)) {
    const found = findField(item, field, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The handle each quarantined reader's result was kept under, by reader. */
function quarantinedHandles(results: readonly ToolResultPart[]): Map<string, string> {
  const handles = new Map<string, string>();
  for (const result of results) {
    const text = typeof result.content === 'string' ? result.content : JSON.stringify(result.content);
    const handle = /kept aside as document (\$doc[0-9]+)/.exec(text)?.[1];
    if (handle !== undefined && !handles.has(result.name)) handles.set(result.name, handle);
  }
  return handles;
}

function readersToExtract(
  task: BenignTask,
  handles: ReadonlyMap<string, string>,
  made: readonly ToolCallPart[],
): { reader: string; handle: string }[] {
  const readers = [...new Set(Object.values(task.read).map((value) => value.reader))];
  return readers.flatMap((reader) => {
    const handle = handles.get(reader);
    if (handle === undefined) return [];
    const asked = made.some(
      (part) => part.name === 'extract' && (part.input as { handle?: unknown }).handle === handle,
    );
    return asked ? [] : [{ reader, handle }];
  });
}

function fieldsSchema(task: BenignTask, reader: string): JsonValue {
  const properties: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(task.read)) {
    if (value.reader !== reader) continue;
    const intended = task.action.input[key];
    const type = typeof intended === 'number' ? 'number' : 'string';
    properties[value.field] = { type: [type, 'null'] };
  }
  return { type: 'object', properties };
}

/** The action with each value read from a quarantined document replaced by the reference an extraction gave. */
function withReferences(
  task: BenignTask,
  handles: ReadonlyMap<string, string>,
  results: readonly ToolResultPart[],
  made: readonly ToolCallPart[],
): JsonValue {
  const input: Record<string, JsonValue> = { ...task.action.input };
  for (const [key, value] of Object.entries(task.read)) {
    const handle = handles.get(value.reader);
    if (handle === undefined) continue;
    const extraction = made.find(
      (part) => part.name === 'extract' && (part.input as { handle?: unknown }).handle === handle,
    );
    const result = results.find((candidate) => candidate.callId === extraction?.id);
    const reference = result === undefined ? undefined : valuesOf(result.content)?.[value.field];
    if (typeof reference !== 'string') {
      input[key] = reference ?? null;
      continue;
    }
    input[key] = value.template === undefined ? reference : value.template.replace('{}', reference);
  }
  return input;
}

function valuesOf(content: ToolResultContent): Record<string, JsonValue> | undefined {
  if (typeof content === 'string') return undefined;
  for (const part of content) {
    if (part.type !== 'json') continue;
    const values = (part.value as { values?: unknown } | null)?.values;
    if (values !== null && typeof values === 'object') return values as Record<string, JsonValue>;
  }
  return undefined;
}
