import { describeMedia } from '../content/describe-media.js';
import type { FileContentPart, ImageContentPart } from '../content/media-part.js';
import type { JsonValue } from '../json/json.js';
import type { ProviderMetadata } from './provider-metadata.js';
import type { ProviderPart } from './provider-part.js';
import type { SourcePart } from './source-part.js';
import type { UntrustedContent } from './untrusted-content.js';

/** Plain text, from the user, the model, or a tool. */
export interface TextPart {
  readonly type: 'text';
  readonly text: string;
  /**
   * Where the model's text came from (citations, annotations, grounding), in the order the provider gave
   * them; absent when it named no source.
   */
  readonly sources?: readonly SourcePart[];
  readonly providerMetadata?: ProviderMetadata;
}

/**
 * The model's visible reasoning (Anthropic thinking, OpenAI reasoning summaries, Gemini thought parts).
 * Providers require some of it to be sent back byte-for-byte (signatures, encrypted content), which the
 * adapter keeps in `providerMetadata`; `text` may be empty when the provider only returned an opaque blob.
 */
export interface ReasoningPart {
  readonly type: 'reasoning';
  readonly text: string;
  readonly providerMetadata?: ProviderMetadata;
}

/**
 * One request by the model to run one tool. The model does nothing by itself: this is a proposal that the
 * executor validates, authorises and only then runs.
 *
 * `input` is what the provider decoded: a JSON object for a tool with a schema, a string for a text tool
 * (see `defineTextTool`). When the provider sent arguments that are not JSON (OpenAI can), the adapter keeps
 * the raw text in `rawInput`, sets `inputError`, and leaves `input` as `undefined`: the executor turns that
 * into an `isError` result so the model can correct itself.
 */
export interface ToolCallPart {
  readonly type: 'tool_call';
  /**
   * Unique in the whole conversation. Synthesised (stably) by the adapter when the provider sends none; the
   * loop replaces a missing or repeated one (see `originalId`), so no request ever repeats an id.
   */
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
  readonly rawInput?: string;
  readonly inputError?: string;
  /**
   * Set by the loop when it had to replace the provider's id (missing, not a string, or already used in the
   * conversation): the id the provider sent, `null` when it sent none. Absent when `id` is the provider's.
   */
  readonly originalId?: string | null;
  readonly providerMetadata?: ProviderMetadata;
}

/** A structured piece of a tool's output, for providers and applications that can use more than text. */
export interface JsonContentPart {
  readonly type: 'json';
  readonly value: JsonValue;
}

/** One part of a tool result: text, a JSON value, an image or a file (see `ImageContentPart`, `FileContentPart`). */
export type ToolResultContentPart = TextPart | JsonContentPart | ImageContentPart | FileContentPart;

/** What a tool result carries: plain text, or an ordered list of parts. */
export type ToolResultContent = string | readonly ToolResultContentPart[];

/** The one answer to one {@link ToolCallPart}, paired to it by `callId`. */
export interface ToolResultPart {
  readonly type: 'tool_result';
  readonly callId: string;
  /** The name the model used (Gemini requires it back; it also makes traces readable). */
  readonly name: string;
  readonly content: ToolResultContent;
  /** True for refusals, invalid inputs, tool failures and timeouts: the model is told, nothing is thrown. */
  readonly isError: boolean;
  readonly providerMetadata?: ProviderMetadata;
  /**
   * Kept by the run's data-flow options (`LoopOptions.dataFlow`): a quarantined output, extracted or vouched
   * values, a declared plan. Never sent to the model.
   */
  readonly dataFlow?: ResultDataFlow;
}

/** A value the human vouched for by typing or choosing it when deciding a call: their own words. */
export interface VouchedValue {
  /** The argument it was vouched for (a JSON Pointer into the call's input). */
  readonly path: string;
  readonly value: string | number | boolean;
}

/**
 * What the run's data-flow options kept with a tool result, beside what the model was sent (`content`).
 * It travels with the conversation (paused, interrupted and stored runs, a run started from these messages),
 * so a run picks up its documents, extracted values, vouched values and plan wherever it goes on. Adapters
 * never send it: providers only receive `content`.
 */
export interface ResultDataFlow {
  /** A quarantined tool's own output; the model was sent a handle in its place. */
  readonly quarantined?: { readonly handle: string; readonly content: ToolResultContent };
  /** The values an extraction read from a quarantined document, by the references the model was sent. */
  readonly extracted?: { readonly handle: string; readonly values: Readonly<Record<string, JsonValue>> };
  /** Values the human vouched for when deciding this call; trusted for the rest of the run. */
  readonly vouched?: readonly VouchedValue[];
  /** The human who vouched. */
  readonly vouchedBy?: string;
  /** The gated tools a plan declaration (made before anything untrusted was read) added to the run's plan. */
  readonly planned?: readonly string[];
}

export interface SystemMessage {
  readonly role: 'system';
  readonly content: string;
}

export interface UserMessage {
  readonly role: 'user';
  readonly content: string | readonly TextPart[];
}

/**
 * What a model turn is made of, in the order the provider emitted it. A `provider` part is something the
 * adapter could not give a neutral meaning (see {@link ProviderPart}); code that renders a turn may skip it.
 */
export type AssistantContentPart = TextPart | ReasoningPart | ToolCallPart | ProviderPart;

export interface AssistantMessage {
  readonly role: 'assistant';
  readonly content: readonly AssistantContentPart[];
  readonly providerMetadata?: ProviderMetadata;
  /**
   * The turn's {@link UntrustedContent} (`ModelTurn.untrustedContent`): what the provider's hosted tools put
   * into the model's context while it wrote this message. A run that starts from a conversation holding it
   * counts it as untrusted, like the tool results in it. Adapters never send it: the provider's own items
   * travel in `providerMetadata`.
   */
  readonly untrustedContent?: readonly UntrustedContent[];
}

/**
 * The single reply that carries every result of one assistant turn, in call order. Adapters place it where
 * their provider wants it (a user message, consecutive `tool` messages, function_call_output items, or
 * functionResponse parts); neutrally it is one message so the "one reply" rule cannot be broken.
 */
export interface ToolMessage {
  readonly role: 'tool';
  readonly content: readonly ToolResultPart[];
}

export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** Renders a tool result's content as the text a provider without structured results receives. */
export function toolResultText(content: ToolResultContent): string {
  if (typeof content === 'string') return content;
  return content.map(partText).join('\n');
}

/** One part as text; a binary part as the line that describes it (type, size, digest or URL). */
function partText(part: ToolResultContentPart): string {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'json':
      return JSON.stringify(part.value);
    default:
      return describeMedia(part);
  }
}

/** The tool calls of an assistant turn, in the order the model emitted them. */
export function toolCallsOf(content: readonly AssistantContentPart[]): ToolCallPart[] {
  return content.filter((part): part is ToolCallPart => part.type === 'tool_call');
}
