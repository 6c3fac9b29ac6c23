import type { Attributes, AttributeValue, Context, Span, Tracer } from '@opentelemetry/api';
import {
  answeringModelOf,
  costOfTurn,
  type JsonValue,
  ProviderError,
  type ToolResultContent,
  toolResultText,
} from '@toolcircuit/core';
import { dataFlowOf, originLines, referenceLines } from './data-flow-of.js';
import { GEN_AI, GEN_AI_OPERATION, genAiProviderName } from './gen-ai-attributes.js';
import type { OpenTelemetryApi } from './load-open-telemetry-api.js';
import type {
  CallSettled,
  InvocationObserver,
  InvocationStart,
  LoopObserver,
  ModelCallEnd,
  ModelCallStart,
} from './loop-observer.js';
import { entryDigestOf } from './observed-options.js';
import { TOOLCIRCUIT, TOOLCIRCUIT_EVENT } from './toolcircuit-attributes.js';
import { responseIdOf, responseModelOf } from './turn-metadata.js';

// The API's enums, by value: these numbers are part of its stable specification.
const SPAN_KIND_INTERNAL = 0;
const SPAN_KIND_CLIENT = 2;
const STATUS_ERROR = 2;

export interface SpanObserverOptions {
  readonly captureContent: boolean;
  readonly agentName: string;
}

/**
 * Spans after the OpenTelemetry GenAI conventions: one `invoke_agent` span per loop invocation, and under
 * it one `chat` span per model call and one `execute_tool` span per call the model made (refused calls
 * included: the conventions' span is the attempt, and its verdict says what happened to it).
 */
export function spanObserver(api: OpenTelemetryApi, tracer: Tracer, options: SpanObserverOptions): LoopObserver {
  return {
    start(invocation) {
      const agent = tracer.startSpan(
        `${GEN_AI_OPERATION.invokeAgent} ${options.agentName}`,
        { kind: SPAN_KIND_INTERNAL, startTime: invocation.at, attributes: agentAttributes(invocation, options) },
        api.context.active(),
      );
      // No SDK registered, or sampled out: the chat and tool spans would not be recorded either, so none
      // of their attributes (digests, content) is computed.
      if (!agent.isRecording()) return notRecording(agent);
      if (invocation.decisions !== undefined && invocation.paused !== undefined) {
        for (const decision of invocation.decisions) {
          const pending = invocation.paused.pending.find((call) => call.callId === decision.callId);
          agent.addEvent(
            TOOLCIRCUIT_EVENT.decision,
            {
              [GEN_AI.toolCallId]: decision.callId,
              [GEN_AI.toolName]: pending?.toolName ?? '',
              [TOOLCIRCUIT.decisionApproved]: decision.approved,
              [TOOLCIRCUIT.confirmationDigest]: pending?.inputDigest ?? decision.inputDigest ?? '',
              ...(decision.vouched === undefined || decision.vouched.length === 0
                ? {}
                : { [TOOLCIRCUIT.decisionVouched]: decision.vouched.map((vouched) => vouched.path) }),
            },
            invocation.at,
          );
        }
      }
      const parent: Context = api.trace.setSpan(api.context.active(), agent);
      return {
        modelCall(start) {
          const span = tracer.startSpan(
            `${GEN_AI_OPERATION.chat} ${start.modelId}`,
            { kind: SPAN_KIND_CLIENT, startTime: start.at, attributes: chatAttributes(invocation, start, options) },
            parent,
          );
          const context = api.trace.setSpan(parent, span);
          return {
            within: (run) => api.context.with(context, run),
            end: (end) => endChatSpan(span, invocation, start, end, options),
          };
        },
        callSettled(call) {
          const span = tracer.startSpan(
            `${GEN_AI_OPERATION.executeTool} ${call.event.call.name}`,
            { kind: SPAN_KIND_INTERNAL, startTime: call.startedAt, attributes: toolAttributes(call, options) },
            parent,
          );
          const { verdict } = call.event;
          if (verdict.kind !== 'executed' && verdict.kind !== 'awaiting_confirmation') {
            span.setStatus({ code: STATUS_ERROR, message: verdict.kind === 'refused' ? verdict.reason : verdict.kind });
          } else if (verdict.kind === 'executed' && verdict.isError) {
            span.setStatus({ code: STATUS_ERROR, message: 'tool_error' });
          }
          span.end(call.endedAt);
        },
        end(end) {
          const { result, error } = end;
          if (result !== undefined) {
            agent.setAttributes(
              compact({
                [TOOLCIRCUIT.runStatus]: result.status,
                [TOOLCIRCUIT.stoppedBy]: result.stoppedBy,
                [TOOLCIRCUIT.turns]: result.turns.length,
                [GEN_AI.usageInputTokens]: result.usage.inputTokens,
                [GEN_AI.usageOutputTokens]: result.usage.outputTokens,
              }),
            );
            if (result.paused !== undefined) {
              agent.addEvent(
                TOOLCIRCUIT_EVENT.paused,
                {
                  [TOOLCIRCUIT.turn]: result.paused.turn,
                  [TOOLCIRCUIT.pausedCallIds]: result.paused.pending.map((call) => call.callId),
                  [TOOLCIRCUIT.pausedToolNames]: result.paused.pending.map((call) => call.toolName),
                  [TOOLCIRCUIT.pausedDigests]: result.paused.pending.map((call) => call.inputDigest),
                },
                end.at,
              );
            }
            if (options.captureContent) {
              agent.setAttribute(
                GEN_AI.outputMessages,
                JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: result.text }] }]),
              );
            }
          }
          if (error !== undefined) failSpan(agent, error);
          agent.end(end.at);
        },
      };
    },
  };
}

function notRecording(agent: Span): InvocationObserver {
  return {
    modelCall: () => ({ within: (run) => run(), end: () => {} }),
    callSettled: () => {},
    end: (end) => agent.end(end.at),
  };
}

function agentAttributes(invocation: InvocationStart, options: SpanObserverOptions): Attributes {
  return compact({
    [GEN_AI.operationName]: GEN_AI_OPERATION.invokeAgent,
    [GEN_AI.providerName]: genAiProviderName(invocation.provider),
    [GEN_AI.agentName]: options.agentName,
    [GEN_AI.conversationId]: invocation.runId,
    [GEN_AI.requestModel]: invocation.modelId,
    [TOOLCIRCUIT.runId]: invocation.runId,
    [TOOLCIRCUIT.invocation]: invocation.kind,
    [TOOLCIRCUIT.sessionId]: invocation.sessionId,
    ...(options.captureContent && invocation.system !== undefined
      ? { [GEN_AI.systemInstructions]: JSON.stringify([{ type: 'text', content: invocation.system }]) }
      : {}),
  });
}

function chatAttributes(invocation: InvocationStart, start: ModelCallStart, options: SpanObserverOptions): Attributes {
  return compact({
    [GEN_AI.operationName]: GEN_AI_OPERATION.chat,
    [GEN_AI.providerName]: genAiProviderName(start.provider),
    [GEN_AI.requestModel]: start.modelId,
    [GEN_AI.conversationId]: invocation.runId,
    [GEN_AI.requestMaxTokens]: start.request.maxOutputTokens,
    [GEN_AI.requestTemperature]: start.request.temperature,
    [GEN_AI.requestStream]: start.streaming,
    [TOOLCIRCUIT.turn]: start.turn,
    // What the step offered: names only (never schemas), so a trace shows per-step tools and choice.
    [TOOLCIRCUIT.requestTools]: start.request.tools.map((tool) => tool.name),
    [TOOLCIRCUIT.requestToolChoice]: toolChoiceOf(start.request.toolChoice),
    [TOOLCIRCUIT.requestHostedTools]: start.request.hostedTools?.map((tool) => tool.kind),
    ...(options.captureContent
      ? {
          [GEN_AI.inputMessages]: JSON.stringify(start.request.messages.map((message) => conventionMessage(message))),
          ...(start.request.system === undefined
            ? {}
            : { [GEN_AI.systemInstructions]: JSON.stringify([{ type: 'text', content: start.request.system }]) }),
        }
      : {}),
  });
}

function endChatSpan(
  span: Span,
  invocation: InvocationStart,
  start: ModelCallStart,
  end: ModelCallEnd,
  options: SpanObserverOptions,
): void {
  const { modelTurn, error } = end;
  if (modelTurn !== undefined) {
    const { usage, stopReason } = modelTurn;
    const answering = answeringModelOf(modelTurn);
    const cost = costOfTurn(modelTurn, start, invocation.prices);
    span.setAttributes(
      compact({
        ...(answering === undefined
          ? {}
          : {
              [GEN_AI.providerName]: genAiProviderName(answering.provider),
              [GEN_AI.requestModel]: answering.modelId,
              [TOOLCIRCUIT.fallbackMember]: answering.member,
              [TOOLCIRCUIT.fallbackFrom]: answering.fellBackFrom?.map(
                (failed) =>
                  `${failed.provider}:${failed.modelId} ${failed.code}${failed.status === undefined ? '' : ` ${failed.status}`}`,
              ),
            }),
        [GEN_AI.responseModel]: responseModelOf(modelTurn),
        [GEN_AI.responseId]: responseIdOf(modelTurn),
        [GEN_AI.responseFinishReasons]: [stopReason.raw ?? stopReason.unified],
        [TOOLCIRCUIT.stopReason]: stopReason.unified,
        [GEN_AI.usageInputTokens]: usage.inputTokens,
        [GEN_AI.usageOutputTokens]: usage.outputTokens,
        [GEN_AI.usageCacheReadInputTokens]: usage.cachedInputTokens,
        [GEN_AI.usageReasoningOutputTokens]: usage.reasoningTokens,
        [TOOLCIRCUIT.costUsd]: cost.usd === 'unknown' ? undefined : cost.usd,
        [TOOLCIRCUIT.costUnknown]: cost.usd === 'unknown' ? cost.why : undefined,
        [GEN_AI.responseTimeToFirstChunk]:
          end.firstChunkAt === undefined ? undefined : (end.firstChunkAt - start.at) / 1000,
        ...(options.captureContent
          ? {
              [GEN_AI.outputMessages]: JSON.stringify([
                conventionMessage({ role: 'assistant', content: modelTurn.content }, stopReason.unified),
              ]),
            }
          : {}),
      }),
    );
  }
  if (error !== undefined) failSpan(span, error);
  span.end(end.at);
}

function toolAttributes(call: CallSettled, options: SpanObserverOptions): Attributes {
  const { event, definition } = call;
  const { verdict } = event;
  const right =
    definition === undefined ? undefined : typeof definition.right === 'string' ? definition.right : '*every-session*';
  const irreversible = definition?.irreversible;
  const confirmationDigest =
    verdict.kind === 'awaiting_confirmation' ? verdict.inputDigest : irreversible === true ? event.inputDigest : null;
  const flow = dataFlowOf(call);
  // The wire protocol of an imported tool (its definition says) or of a served call (only its entry says).
  const protocol = call.entry?.protocol ?? definition?.protocol;
  return compact({
    [GEN_AI.operationName]: GEN_AI_OPERATION.executeTool,
    [GEN_AI.toolName]: event.call.name,
    [GEN_AI.toolCallId]: event.call.id,
    [GEN_AI.toolType]: 'function',
    [GEN_AI.toolDescription]: definition?.description,
    [GEN_AI.conversationId]: event.runId,
    [TOOLCIRCUIT.turn]: event.turn,
    [TOOLCIRCUIT.callIndex]: event.index,
    [TOOLCIRCUIT.verdict]: verdict.kind,
    [TOOLCIRCUIT.reason]: verdict.kind === 'refused' ? verdict.reason : undefined,
    [TOOLCIRCUIT.right]: right,
    [TOOLCIRCUIT.irreversible]: irreversible,
    [TOOLCIRCUIT.inputDigest]: event.inputDigest ?? undefined,
    [TOOLCIRCUIT.confirmationDigest]: confirmationDigest ?? undefined,
    [TOOLCIRCUIT.outputDigest]: call.entry?.outputDigest,
    [TOOLCIRCUIT.retries]: call.retries,
    [TOOLCIRCUIT.resumed]: call.resumed,
    [TOOLCIRCUIT.timeoutMs]: verdict.kind === 'timed_out' ? verdict.timeoutMs : undefined,
    [TOOLCIRCUIT.journalEntryDigest]: call.entry === undefined ? undefined : entryDigestOf(call.entry),
    [TOOLCIRCUIT.provenanceTurn]: event.turn,
    [TOOLCIRCUIT.provenanceResponseId]: call.responseId,
    // Taint is what the executor journaled for the call (the loop tracks it only when provenance is on).
    [TOOLCIRCUIT.provenanceOutputTrust]: call.entry?.provenance?.outputTrust,
    [TOOLCIRCUIT.provenanceTaintedBy]: call.entry?.provenance?.taintedBy,
    [TOOLCIRCUIT.provenanceGatedBecause]: call.entry?.provenance?.gate?.gatedBecause,
    [TOOLCIRCUIT.provenanceTaintDigest]: call.entry?.provenance?.gate?.taintDigest,
    [TOOLCIRCUIT.provenanceFlaggedArguments]: call.entry?.provenance?.gate?.flaggedArguments.map(
      (flagged) => flagged.path,
    ),
    [TOOLCIRCUIT.dataFlowRefusedBy]: flow?.refusedBy,
    [TOOLCIRCUIT.dataFlowVouchFor]: flow?.vouchFor,
    [TOOLCIRCUIT.dataFlowOrigins]: originLines(flow),
    [TOOLCIRCUIT.dataFlowReferences]: referenceLines(flow),
    [TOOLCIRCUIT.protocolName]: protocol?.name,
    [TOOLCIRCUIT.protocolRevision]: protocol?.revision,
    [TOOLCIRCUIT.protocolRole]: protocol?.role,
    [TOOLCIRCUIT.protocolPeer]: protocol?.peer,
    [GEN_AI.errorType]: errorTypeOf(call),
    ...(options.captureContent
      ? {
          [GEN_AI.toolCallArguments]: JSON.stringify(event.call.input ?? null),
          ...(verdict.kind === 'awaiting_confirmation'
            ? {}
            : { [GEN_AI.toolCallResult]: toolResultText(event.result.content) }),
          [TOOLCIRCUIT.reasonMessage]:
            verdict.kind === 'refused' || verdict.kind === 'failed' ? verdict.message : undefined,
        }
      : {}),
  });
}

/** `error.type` for a call that did not run to a normal result: the refusal reason, or what went wrong. */
function errorTypeOf(call: CallSettled): string | undefined {
  const { verdict } = call.event;
  switch (verdict.kind) {
    case 'refused':
      return verdict.reason;
    case 'failed':
    case 'timed_out':
    case 'aborted':
      return verdict.kind;
    case 'executed':
      return verdict.isError ? 'tool_error' : undefined;
    case 'awaiting_confirmation':
      return undefined;
  }
}

function failSpan(span: Span, error: unknown): void {
  const type = error instanceof ProviderError ? error.code : error instanceof Error ? error.name : 'error';
  span.setAttribute(GEN_AI.errorType, type);
  if (error instanceof ProviderError) {
    span.setAttribute(TOOLCIRCUIT.providerErrorCode, error.code);
    span.setAttribute(TOOLCIRCUIT.providerErrorRetryable, error.retryable);
  }
  span.setStatus({ code: STATUS_ERROR, message: error instanceof Error ? error.message : String(error) });
}

/** A message in the conventions' content shape (`role` + typed `parts`). */
function conventionMessage(
  message: { readonly role: string; readonly content: unknown },
  finishReason?: string,
): JsonValue {
  const parts: JsonValue[] = [];
  const { content } = message;
  if (typeof content === 'string') parts.push({ type: 'text', content });
  else if (Array.isArray(content)) {
    for (const part of content as readonly Record<string, unknown>[]) {
      if (part['type'] === 'text') parts.push({ type: 'text', content: String(part['text']) });
      else if (part['type'] === 'reasoning') parts.push({ type: 'reasoning', content: String(part['text']) });
      else if (part['type'] === 'tool_call') {
        parts.push({
          type: 'tool_call',
          id: String(part['id']),
          name: String(part['name']),
          arguments: (part['input'] ?? null) as JsonValue,
        });
      } else if (part['type'] === 'tool_result') {
        parts.push({
          type: 'tool_call_response',
          id: String(part['callId']),
          response: toolResultText(part['content'] as ToolResultContent),
        });
      }
    }
  }
  return {
    role: message.role,
    parts,
    ...(finishReason === undefined ? {} : { finish_reason: finishReason }),
  };
}

/** Attributes without the absent ones (the API drops `undefined` values, with a warning). */
function compact(attributes: Record<string, AttributeValue | undefined | null>): Attributes {
  const kept: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined && value !== null) kept[key] = value;
  return kept;
}

/** `auto`, `none`, `required`, or `tool:<name>` for a named tool. */
function toolChoiceOf(choice: ModelCallStart['request']['toolChoice']): string | undefined {
  if (choice === undefined || typeof choice === 'string') return choice;
  return `tool:${choice.name}`;
}
