import type {
  AssistantContentPart,
  JsonObject,
  ModelTurn,
  ProviderPart,
  StreamEvent,
  ToolCallPart,
} from '@toolcircuit/core';
import { applyPartialArgs } from './assemble-partial-function-call.js';
import type { GeminiFunctionCall, GeminiResponse, GeminiUsageMetadata } from './google-api.js';
import { type HostedPart, hostedPartOf, withHostedParts } from './google-hosted-parts.js';
import { googlePartMetadata } from './google-metadata.js';
import {
  type GoogleSourceMetadata,
  sourceMetadataOf,
  withGoogleSources,
  withSourceMetadata,
} from './google-sources.js';
import { unansweredCallIn, unknownPartOf } from './google-unknown-parts.js';
import { googleUntrustedContent } from './google-untrusted-content.js';
import { mapGoogleStopReason } from './map-google-stop-reason.js';
import { mapGoogleUsage } from './map-google-usage.js';
import { parseGoogleFunctionCall } from './parse-google-function-call.js';
import { type ParseGoogleResponseOptions, parseGoogleTextPart, turnMetadata } from './parse-google-response.js';
import { synthesizeToolCallId } from './synthesize-tool-call-id.js';

/** `inputError` of a call the stream ended before closing. */
export const CUT_OFF_INPUT_ERROR = 'the stream ended before this tool call was complete; it must not run';

type Entry =
  | { kind: 'text' | 'reasoning'; text: string; signature: string | undefined; sealed: boolean }
  | { kind: 'call'; part: ToolCallPart }
  | { kind: 'partial'; id: string; name: string; args: JsonObject; signature: string | undefined }
  | { kind: 'hosted'; part: JsonObject }
  | { kind: 'provider'; part: ProviderPart };

export interface AssembledGoogleTurn {
  readonly turn: ModelTurn;
  readonly incompleteToolCallIds: readonly string[];
  /** The kind of an unknown `…Call` part nothing answers (see `unansweredCallIn`), if the turn has one. */
  readonly unsupported?: string;
}

/**
 * Folds Gemini stream chunks (each a whole GenerateContentResponse holding the new parts) into neutral
 * events and, at the end, the same turn `generate()` would have returned for that answer:
 * - text and thought chunks merge into one part per run, as the non-streamed answer has them; a chunk
 *   carrying a `thoughtSignature` seals its part, so the signature goes back where it came;
 * - a functionCall part is complete on arrival (Gemini API): start, one delta with its JSON, end;
 * - a Vertex partial-arguments call is assembled across chunks and only ends at its closing `{}`;
 *   one still open when the stream ends is kept with `inputError` and listed as incomplete.
 */
export class GoogleStreamAssembler {
  readonly #options: ParseGoogleResponseOptions;
  readonly #entries: Entry[] = [];
  #ordinal = 0;
  /** The Vertex streamed-arguments call being assembled, if any. */
  #partial: Extract<Entry, { kind: 'partial' }> | undefined;
  #responseId: string | undefined;
  #modelVersion: string | undefined;
  #finishReason: string | undefined;
  #blockReason: string | undefined;
  #usage: GeminiUsageMetadata | undefined;
  /** Grounding, URL context and citation metadata: each chunk that has a field carries it whole so far. */
  readonly #sources: GoogleSourceMetadata = {};

  constructor(options: ParseGoogleResponseOptions) {
    this.#options = options;
  }

  push(chunk: GeminiResponse): StreamEvent[] {
    this.#responseId ??= chunk.responseId;
    this.#modelVersion ??= chunk.modelVersion;
    if (chunk.usageMetadata !== undefined) this.#usage = chunk.usageMetadata;
    this.#blockReason ??= chunk.promptFeedback?.blockReason;
    const candidate = chunk.candidates?.[0];
    if (candidate?.finishReason !== undefined) this.#finishReason = candidate.finishReason;
    sourceMetadataOf(candidate, this.#sources);
    const events: StreamEvent[] = [];
    for (const part of candidate?.content?.parts ?? []) {
      const hosted = hostedPartOf(part);
      const unknown = hosted === undefined ? unknownPartOf(part) : undefined;
      if (hosted !== undefined) this.#entries.push({ kind: 'hosted', part: hosted });
      else if (unknown !== undefined) {
        this.#entries.push({ kind: 'provider', part: unknown });
        events.push({ type: 'provider-part', part: unknown });
      } else if (part.functionCall !== undefined) events.push(...this.#call(part.functionCall, part.thoughtSignature));
      else events.push(...this.#text(part.text ?? '', part.thought === true, part.thoughtSignature));
    }
    return events;
  }

  /** Whether a chunk said the turn is over: a candidate's `finishReason`, or the prompt's `blockReason`. */
  get finished(): boolean {
    return this.#finishReason !== undefined || this.#blockReason !== undefined;
  }

  finish(): AssembledGoogleTurn {
    const incompleteToolCallIds: string[] = [];
    const content: AssistantContentPart[] = [];
    const hosted: HostedPart[] = [];
    for (const entry of this.#entries) {
      if (entry.kind === 'hosted') {
        hosted.push({ at: content.length, part: entry.part });
      } else if (entry.kind === 'provider') {
        content.push(entry.part);
      } else if (entry.kind === 'call') {
        content.push(entry.part);
      } else if (entry.kind === 'partial') {
        incompleteToolCallIds.push(entry.id);
        const metadata = googlePartMetadata({
          idSynthesized: true,
          ...(entry.signature === undefined ? {} : { thoughtSignature: entry.signature }),
        });
        content.push({
          type: 'tool_call',
          id: entry.id,
          name: entry.name,
          input: undefined,
          rawInput: JSON.stringify(entry.args),
          inputError: CUT_OFF_INPUT_ERROR,
          ...(metadata === undefined ? {} : { providerMetadata: metadata }),
        });
      } else {
        const text = parseGoogleTextPart({
          text: entry.text,
          thought: entry.kind === 'reasoning',
          thoughtSignature: entry.signature,
        });
        if (text !== undefined) content.push(text);
      }
    }
    const completeCalls = content.filter((part) => part.type === 'tool_call' && part.inputError === undefined);
    const untrusted = googleUntrustedContent(hosted, this.#sources);
    const turn: ModelTurn = {
      content: withGoogleSources(content, this.#sources),
      stopReason: mapGoogleStopReason({
        finishReason: this.#finishReason,
        blockReason: this.#blockReason,
        hasToolCalls: completeCalls.length > 0,
      }),
      usage: mapGoogleUsage(this.#usage),
      ...withSourceMetadata(
        withHostedParts(turnMetadata({ responseId: this.#responseId, modelVersion: this.#modelVersion }), hosted),
        this.#sources,
      ),
      ...(untrusted === undefined ? {} : { untrustedContent: untrusted }),
    };
    const unsupported = unansweredCallIn(
      this.#entries.flatMap((entry) => (entry.kind === 'provider' ? [entry.part] : [])),
    );
    return { turn, incompleteToolCallIds, ...(unsupported === undefined ? {} : { unsupported }) };
  }

  #text(text: string, thought: boolean, signature: string | undefined): StreamEvent[] {
    if (text === '' && signature === undefined) return [];
    const kind = thought ? 'reasoning' : 'text';
    const last = this.#entries.at(-1);
    if (last !== undefined && last.kind === kind && !last.sealed) {
      last.text += text;
      if (signature !== undefined) {
        last.signature = signature;
        last.sealed = true;
      }
    } else {
      this.#entries.push({ kind, text, signature, sealed: signature !== undefined });
    }
    if (text === '') return [];
    if (!thought) return [{ type: 'text-delta', text }];
    const metadata = googlePartMetadata(signature === undefined ? {} : { thoughtSignature: signature });
    return [{ type: 'reasoning-delta', text, ...(metadata === undefined ? {} : { providerMetadata: metadata }) }];
  }

  #call(call: GeminiFunctionCall, signature: string | undefined): StreamEvent[] {
    const open = this.#partial;
    if (open !== undefined) {
      if (call.partialArgs !== undefined) applyPartialArgs(open.args, call.partialArgs);
      if (signature !== undefined) open.signature ??= signature;
      // Vertex closes a streamed call with an empty functionCall; a new named call also ends the previous one.
      if (call.name === undefined && call.willContinue !== true && call.partialArgs === undefined)
        return this.#close(open);
      if (call.name === undefined) return [];
      const events = this.#close(open);
      return [...events, ...this.#call(call, signature)];
    }
    const idSeed = this.#responseId ?? this.#options.requestSeed;
    const ordinal = this.#ordinal;
    this.#ordinal += 1;
    if (call.willContinue === true && call.name !== undefined) {
      const name = this.#options.fromProviderName(call.name);
      const id = call.id ?? synthesizeToolCallId(idSeed, ordinal, call.name, undefined);
      this.#partial = { kind: 'partial', id, name, args: {}, signature };
      this.#entries.push(this.#partial);
      return [{ type: 'tool-call-start', id, name, index: ordinal } satisfies StreamEvent];
    }
    const part = parseGoogleFunctionCall(call, {
      idSeed,
      ordinal,
      thoughtSignature: signature,
      fromProviderName: this.#options.fromProviderName,
      restoreInput: this.#options.restoreInput,
    });
    this.#entries.push({ kind: 'call', part });
    return callEvents(part, ordinal);
  }

  #close(entry: Extract<Entry, { kind: 'partial' }>): StreamEvent[] {
    const metadata = googlePartMetadata({
      idSynthesized: true,
      ...(entry.signature === undefined ? {} : { thoughtSignature: entry.signature }),
    });
    const part: ToolCallPart = {
      type: 'tool_call',
      id: entry.id,
      name: entry.name,
      input: this.#options.restoreInput(entry.name, entry.args),
      ...(metadata === undefined ? {} : { providerMetadata: metadata }),
    };
    this.#entries[this.#entries.indexOf(entry)] = { kind: 'call', part };
    this.#partial = undefined;
    return [
      { type: 'tool-call-delta', id: part.id, argumentsDelta: JSON.stringify(entry.args) },
      { type: 'tool-call-end', id: part.id, name: part.name, input: part.input },
    ];
  }
}

/** A whole call as events: Gemini delivers its arguments at once, so there is one delta. */
function callEvents(part: ToolCallPart, index: number): StreamEvent[] {
  return [
    { type: 'tool-call-start', id: part.id, name: part.name, index },
    { type: 'tool-call-delta', id: part.id, argumentsDelta: part.rawInput ?? JSON.stringify(part.input) },
    part.inputError === undefined
      ? { type: 'tool-call-end', id: part.id, name: part.name, input: part.input }
      : { type: 'tool-call-end', id: part.id, name: part.name, input: part.input, inputError: part.inputError },
  ];
}
