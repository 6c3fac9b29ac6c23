import type { JsonObject, ModelTurn } from '@toolcircuit/core';
import type { Cassette, CassetteProtocol } from '../cassettes/cassette.js';
import type { ConformanceCall, ConformanceTurn } from '../conformance/conformance-scenario.js';
import { conformanceWireOf } from '../conformance/conformance-wires.js';

export interface ScriptedCassetteOptions {
  /**
   * The model id the application asks for. Gemini names it in the request path, which the replay server
   * matches, so it must be the application's; other protocols only echo it. Default: a current model id.
   */
  readonly model?: string;
  /** Seeds the made-up provider ids (two cassettes of one name get the same ids) and names it in provenance. */
  readonly name?: string;
}

/**
 * A cassette in which the provider answers each request with the next of `turns`, written in that protocol's
 * wire shape (one non-streamed JSON response per turn; requests match on method and path). The same turns a
 * scripted model plays (`toolCallsTurn`, `textTurn`), so a conversation scripted for a unit test can go
 * through an adapter and its official SDK over HTTP instead. A turn with calls stops for them; a turn without
 * ends the run (its `stopReason` and `usage` are not carried: the wire's own are written). Labelled synthetic.
 *
 * Throws a `TypeError` for a call whose input is not a JSON object (what every protocol carries) or a turn
 * with reasoning parts (provider-specific, not scripted here).
 */
export function scriptedCassette(
  protocol: CassetteProtocol,
  turns: readonly ModelTurn[],
  options: ScriptedCassetteOptions = {},
): Cassette {
  const wire = conformanceWireOf(protocol);
  const name = options.name ?? 'scripted';
  const model = options.model ?? wire.model;
  const neutral = turns.map((turn, index) => neutralTurn(turn, index));
  return {
    format: 'toolcircuit-cassette/1',
    protocol,
    provenance: {
      kind: 'synthetic',
      note:
        `Scripted conversation "${name}" (${turns.length} turn${turns.length === 1 ? '' : 's'}) on ${protocol}, ` +
        'written by scriptedCassette from neutral turns. NOT real traffic: ids, signatures and token counts are ' +
        `made up; the response shape follows the recorded cassettes ${wire.shapeReferences.join(', ')}.`,
    },
    model,
    interactions: neutral.map((turn, turnIndex) => ({
      // Gemini puts the model in the path; the others have one path per protocol.
      request: { method: 'POST', path: protocol === 'gemini' ? wire.path.replace(wire.model, model) : wire.path },
      response: {
        status: 200,
        headers: { ...wire.responseHeaders },
        body: { kind: 'json', json: wire.responseBody({ scenarioId: name, turnIndex, turn }) },
      },
    })),
  };
}

function neutralTurn(turn: ModelTurn, index: number): ConformanceTurn {
  const texts: string[] = [];
  const calls: ConformanceCall[] = [];
  for (const part of turn.content) {
    if (part.type === 'text') texts.push(part.text);
    else if (part.type === 'tool_call') {
      if (!isJsonObject(part.input)) {
        throw new TypeError(
          `scriptedCassette: turn ${index + 1}, call "${part.name}": the input must be a JSON object (every ` +
            `provider carries call arguments as one), got ${JSON.stringify(part.input) ?? String(part.input)}.`,
        );
      }
      calls.push({ name: part.name, arguments: part.input });
    } else {
      throw new TypeError(
        `scriptedCassette: turn ${index + 1} has a ${part.type} part; script text and tool calls only.`,
      );
    }
  }
  return texts.length === 0 ? { calls } : { text: texts.join(''), calls };
}

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
