import {
  answeringModelOf,
  costOfTurn,
  type JsonValue,
  journalDataFlowOf,
  ProviderError,
  toolCallsOf,
} from '@toolcircuit/core';
import { callGateOf } from './call-gate.js';
import { dataFlowOf } from './data-flow-of.js';
import type { LoopObserver } from './loop-observer.js';
import { entryDigestOf } from './observed-options.js';
import type { TraceRecord } from './trace-record.js';
import { responseIdOf, responseModelOf, traceSourcesOf } from './turn-metadata.js';

/** Where trace records go, one at a time, in order (e.g. lines appended to a file). */
export type TraceSink = (record: TraceRecord) => void;

export interface TraceFileObserverOptions {
  readonly captureContent: boolean;
  readonly label?: string;
}

/** Trace records (see {@link TraceRecord}) of every invocation, handed to `sink` as they happen. */
export function traceFileObserver(sink: TraceSink, options: TraceFileObserverOptions): LoopObserver {
  const content = options.captureContent;
  return {
    start(invocation) {
      const { runId } = invocation;
      sink({
        type: 'invocation',
        runId,
        kind: invocation.kind,
        at: invocation.at,
        ...(options.label === undefined ? {} : { label: options.label }),
        provider: invocation.provider,
        model: invocation.modelId,
        sessionId: invocation.sessionId,
        streaming: invocation.streaming,
        tools: invocation.tools,
        ...(content && invocation.system !== undefined ? { system: invocation.system } : {}),
        ...(content ? { messages: jsonOf(invocation.messages) } : {}),
      });
      const { paused, decisions } = invocation;
      if (paused !== undefined && decisions !== undefined) {
        for (const decision of decisions) {
          const pending = paused.pending.find((call) => call.callId === decision.callId);
          sink({
            type: 'decision',
            runId,
            turn: paused.turn,
            at: invocation.at,
            callId: decision.callId,
            tool: pending?.toolName ?? '',
            approved: decision.approved,
            inputDigest: pending?.inputDigest ?? decision.inputDigest ?? '',
            by: paused.humanId,
            ...(pending?.request === undefined ? {} : { informedOf: pending.request.taintDigest }),
            ...(decision.vouched === undefined || decision.vouched.length === 0
              ? {}
              : {
                  vouched: decision.vouched.map((vouched) => vouched.path),
                  ...(content ? { vouchedValues: decision.vouched.map((vouched) => vouched.value) } : {}),
                }),
            ...(content && decision.note !== undefined ? { note: decision.note } : {}),
          });
        }
      }
      return {
        modelCall(start) {
          return {
            within: (run) => run(),
            end(end) {
              const { modelTurn, error } = end;
              const responseModel = modelTurn === undefined ? undefined : responseModelOf(modelTurn);
              const responseId = modelTurn === undefined ? undefined : responseIdOf(modelTurn);
              const text = modelTurn?.content.map((part) => (part.type === 'text' ? part.text : '')).join('') ?? '';
              const sources = modelTurn === undefined ? [] : traceSourcesOf(modelTurn);
              const answering = modelTurn === undefined ? undefined : answeringModelOf(modelTurn);
              const providerParts = (modelTurn?.content ?? []).flatMap((part) =>
                part.type === 'provider' ? [{ provider: part.provider, kind: part.kind }] : [],
              );
              sink({
                type: 'model-call',
                runId,
                turn: start.turn,
                start: start.at,
                end: end.at,
                ...(end.firstChunkAt === undefined ? {} : { firstChunk: end.firstChunkAt }),
                provider: start.provider,
                requestModel: start.modelId,
                tools: start.request.tools.map((tool) => tool.name),
                ...(start.request.toolChoice === undefined ? {} : { toolChoice: start.request.toolChoice }),
                ...(responseModel === undefined ? {} : { responseModel }),
                ...(responseId === undefined ? {} : { responseId }),
                ...(modelTurn === undefined
                  ? {}
                  : {
                      stopReason: modelTurn.stopReason,
                      usage: modelTurn.usage,
                      ...(answering === undefined
                        ? {}
                        : {
                            answeringModel: {
                              provider: answering.provider,
                              modelId: answering.modelId,
                              member: answering.member,
                            },
                          }),
                      cost: costOfTurn(modelTurn, start, invocation.prices),
                      calls: toolCallsOf(modelTurn.content).map((call) => ({ id: call.id, name: call.name })),
                    }),
                ...(error === undefined ? {} : { error: errorOf(error) }),
                ...(content && text !== '' ? { text } : {}),
                ...(content && sources.length > 0 ? { sources } : {}),
                ...(providerParts.length > 0 ? { providerParts } : {}),
              });
            },
          };
        },
        callSettled(call) {
          const { event, definition, entry } = call;
          const { verdict } = event;
          const gate = callGateOf(event, entry, content);
          const outputTrust = entry?.provenance?.outputTrust;
          const flow = dataFlowOf(call);
          sink({
            type: 'call',
            runId,
            turn: event.turn,
            index: event.index,
            callId: event.call.id,
            tool: event.call.name,
            start: call.startedAt,
            end: call.endedAt,
            verdict: verdict.kind,
            ...(verdict.kind === 'refused' ? { reason: verdict.reason } : {}),
            isError: event.result.isError,
            ...(definition === undefined
              ? {}
              : {
                  right: typeof definition.right === 'string' ? definition.right : null,
                  irreversible: definition.irreversible,
                }),
            inputDigest: event.inputDigest,
            ...(entry?.outputDigest === undefined ? {} : { outputDigest: entry.outputDigest }),
            ...(entry === undefined ? {} : { entryDigest: entryDigestOf(entry) }),
            retries: call.retries,
            resumed: call.resumed,
            ...(verdict.kind === 'timed_out' ? { timeoutMs: verdict.timeoutMs } : {}),
            provenance: {
              turn: event.turn,
              provider: invocation.provider,
              ...(call.responseId === undefined ? {} : { responseId: call.responseId }),
            },
            ...(outputTrust === undefined ? {} : { outputTrust }),
            ...(gate === undefined ? {} : { gate }),
            ...(flow === undefined ? {} : { dataFlow: flow }),
            ...(content
              ? {
                  input: jsonOf(event.call.input),
                  ...(verdict.kind === 'awaiting_confirmation' ? {} : { result: event.result.content }),
                  ...(verdict.kind === 'refused' || verdict.kind === 'failed' ? { message: verdict.message } : {}),
                }
              : {}),
          });
        },
        end(end) {
          const { result, error } = end;
          if (result?.paused !== undefined) {
            sink({
              type: 'pause',
              runId,
              turn: result.paused.turn,
              at: end.at,
              pending: result.paused.pending.map((call) => ({
                callId: call.callId,
                tool: call.toolName,
                inputDigest: call.inputDigest,
                ...(call.dataFlow === undefined ? {} : { dataFlow: journalDataFlowOf(call.dataFlow) }),
                ...(content ? { input: call.input } : {}),
              })),
            });
          }
          sink({
            type: 'invocation-end',
            runId,
            at: end.at,
            status: result?.status ?? 'error',
            ...(result?.stoppedBy === undefined ? {} : { stoppedBy: result.stoppedBy }),
            turns: result?.turns.length ?? 0,
            ...(result === undefined ? {} : { usage: result.usage }),
            ...(error === undefined ? {} : { error: errorOf(error) }),
          });
        },
      };
    },
  };
}

function errorOf(error: unknown): { type: string; message: string; retryable?: boolean } {
  if (error instanceof ProviderError) return { type: error.code, message: error.message, retryable: error.retryable };
  if (error instanceof Error) return { type: error.name, message: error.message };
  return { type: 'error', message: String(error) };
}

function jsonOf(value: unknown): JsonValue {
  if (value === undefined) return null;
  try {
    return JSON.parse(JSON.stringify(value)) as JsonValue;
  } catch {
    return null;
  }
}
