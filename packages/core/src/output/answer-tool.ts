import type { AssistantContentPart, TextPart } from '../messages/messages.js';
import type { ModelRequest, OutputFormat, ToolChoice, ToolDeclaration } from '../messages/model.js';
import type { ModelTurn } from '../messages/model-turn.js';
import type { StreamEvent } from '../messages/stream-events.js';

/**
 * For an adapter whose provider cannot carry the run's answer in its structured mode next to the request's
 * tools (or at all): the request with an answer tool, named `output.name`, whose input schema is the
 * answer's. The model calls it to answer; it is never run — {@link answerToolTurn} turns the call back into
 * the turn's text before the loop sees it.
 *
 * Tool choice: the model must call a tool, a catalogue tool or the answer (`required`), since an answer in
 * plain text would be unconstrained; `none` ("answer now") forces the answer tool; a named tool stays forced.
 * `force: false` (a provider that refuses forced tool use in some mode, e.g. Anthropic with thinking) keeps
 * the choice `auto` (`none` too: the corrective message then asks for the answer in words).
 */
export function answerToolRequest(request: ModelRequest, options: { readonly force?: boolean } = {}): ModelRequest {
  const format = request.output;
  if (format === undefined) return request;
  const force = options.force !== false;
  const choice = request.toolChoice;
  const tools = withAnswerTool(request.tools, format);
  // Every tool stays declared (the history may hold calls to them); the choice forces the answer.
  if (choice === 'none') return { ...request, tools, toolChoice: force ? { type: 'tool', name: format.name } : 'auto' };
  const toolChoice: ToolChoice | undefined = typeof choice === 'object' ? choice : force ? 'required' : choice;
  return toolChoice === undefined ? { ...request, tools } : { ...request, tools, toolChoice };
}

/** The answer tool's declaration: the answer's schema as its input. */
function answerToolDeclaration(format: OutputFormat): ToolDeclaration {
  let declaration = declarations.get(format);
  if (declaration === undefined) {
    const purpose = format.description === undefined ? '' : ` ${format.description}`;
    declaration = Object.freeze({
      name: format.name,
      description: `Give your final answer by calling this tool once, with the answer as its input.${purpose} Call it only when you are done with the other tools.`,
      inputSchema: format.schema,
    });
    declarations.set(format, declaration);
  }
  return declaration;
}

const declarations = new WeakMap<OutputFormat, ToolDeclaration>();
// Same array for the same tools and format, so adapters that cache their translation by array identity do.
const lists = new WeakMap<readonly ToolDeclaration[], WeakMap<OutputFormat, readonly ToolDeclaration[]>>();

function withAnswerTool(tools: readonly ToolDeclaration[], format: OutputFormat): readonly ToolDeclaration[] {
  let byFormat = lists.get(tools);
  if (byFormat === undefined) {
    byFormat = new WeakMap();
    lists.set(tools, byFormat);
  }
  let list = byFormat.get(format);
  if (list === undefined) {
    list = Object.freeze([...tools, answerToolDeclaration(format)]);
    byFormat.set(format, list);
  }
  return list;
}

/**
 * A turn with the answer tool's call made the turn's text again: each call named `name` becomes a text part
 * holding its input as JSON (its raw text when the provider's arguments did not parse), in its place, so the
 * loop reads the answer as it reads a native one and no call is left to answer. A turn left without calls
 * that stopped for them ends `end_turn`.
 */
export function answerToolTurn(turn: ModelTurn, name: string): ModelTurn {
  if (!turn.content.some((part) => isAnswerCall(part, name))) return turn;
  const content = turn.content.map(
    (part): AssistantContentPart => (isAnswerCall(part, name) ? answerText(part) : part),
  );
  const callsLeft = content.some((part) => part.type === 'tool_call');
  const stopReason =
    !callsLeft && turn.stopReason.unified === 'tool_calls'
      ? { ...turn.stopReason, unified: 'end_turn' as const }
      : turn.stopReason;
  return { ...turn, content, stopReason };
}

/** The same for a stream: the answer call's argument deltas become text deltas, its turn-end the turn above. */
export async function* answerToolEvents(events: AsyncIterable<StreamEvent>, name: string): AsyncGenerator<StreamEvent> {
  const answering = new Set<string>();
  for await (const event of events) {
    if (event.type === 'tool-call-start' && event.name === name) {
      answering.add(event.id);
      continue;
    }
    if (event.type === 'tool-call-delta' && answering.has(event.id)) {
      if (event.argumentsDelta !== '') yield { type: 'text-delta', text: event.argumentsDelta };
      continue;
    }
    if (event.type === 'tool-call-end' && answering.has(event.id)) continue;
    if (event.type === 'turn-end') {
      yield {
        ...event,
        turn: answerToolTurn(event.turn, name),
        incompleteToolCallIds: event.incompleteToolCallIds.filter((id) => !answering.has(id)),
      };
      continue;
    }
    yield event;
  }
}

function isAnswerCall(part: AssistantContentPart, name: string): boolean {
  return part.type === 'tool_call' && part.name === name;
}

function answerText(part: AssistantContentPart): TextPart {
  if (part.type !== 'tool_call') return part as TextPart;
  const text =
    part.inputError !== undefined && part.rawInput !== undefined ? part.rawInput : JSON.stringify(part.input ?? null);
  return part.providerMetadata === undefined
    ? { type: 'text', text }
    : { type: 'text', text, providerMetadata: part.providerMetadata };
}
