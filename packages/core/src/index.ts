export { isAuthorized } from './authorize.js';
export { type ConversionCache, cachedConversion } from './cached-conversion.js';
export { type JsonTextCache, sealEachForReuse, sealForReuse, stringifyRequestBody } from './cached-json-text.js';
export { canonicalJson, jsonDigest } from './canonical-json.js';
export { type Catalogue, type CatalogueEntry, createCatalogue } from './catalogue.js';
export {
  argumentDigest,
  type Confirmation,
  type ConfirmationStore,
  confirmationFor,
  InMemoryConfirmations,
} from './confirm.js';
export { abortedProviderError } from './errors/aborted-provider-error.js';
export { ConfigurationError } from './errors/configuration-error.js';
export { DuplicateToolNameError } from './errors/duplicate-tool-name-error.js';
export { InvalidLoopOptionsError } from './errors/invalid-loop-options-error.js';
export { type InvalidResponseReceived, invalidResponseError } from './errors/invalid-response-error.js';
export { InvalidResumeError } from './errors/invalid-resume-error.js';
export { InvalidToolDefinitionError } from './errors/invalid-tool-definition-error.js';
export { InvalidToolNameError } from './errors/invalid-tool-name-error.js';
export { JournalWriteError } from './errors/journal-write-error.js';
export { ProviderError, type ProviderErrorCode, type ProviderErrorInit } from './errors/provider-error.js';
export { RootSchemaNotObjectError } from './errors/root-schema-not-object-error.js';
export { SchemaCompileError } from './errors/schema-compile-error.js';
export { streamInterruptedError } from './errors/stream-interrupted-error.js';
export { ToolcircuitError } from './errors/toolcircuit-error.js';
export { UnsupportedSchemaError } from './errors/unsupported-schema-error.js';
export {
  type ConfirmationMode,
  type ExecutionContext,
  type ExecutionOutcome,
  executeCall,
  type ToolStartEvent,
} from './executor.js';
export { isEventStream } from './http/is-event-stream.js';
export { isTransportFailure } from './http/is-transport-failure.js';
export { type HeaderReader, retryAfterMs } from './http/retry-after.js';
export { InMemoryJournal } from './in-memory-journal.js';
export type { Journal, JournalAppendDetail, JournalEntry } from './journal.js';
export type { JsonObject, JsonValue } from './json.js';
export {
  type CallEvent,
  DEFAULT_CONCURRENCY,
  DEFAULT_MAX_TURNS,
  type LoopHooks,
  type LoopOptions,
  type LoopResult,
  type LoopStatus,
  type ResultEvent,
  runLoop,
  type TurnEvent,
} from './loop.js';
export type {
  LoopCallVerdictEvent,
  LoopEndEvent,
  LoopErrorEvent,
  LoopEventTag,
  LoopModelEvent,
  LoopReplyEvent,
  LoopStreamEvent,
  LoopToolResultEvent,
  LoopTurnEndEvent,
  LoopTurnStartEvent,
} from './loop-stream-event.js';
export type {
  AssistantContentPart,
  AssistantMessage,
  JsonContentPart,
  Message,
  ReasoningPart,
  SystemMessage,
  TextPart,
  ToolCallPart,
  ToolMessage,
  ToolResultContent,
  ToolResultPart,
  UserMessage,
} from './messages.js';
export { toolCallsOf, toolResultText } from './messages.js';
export type {
  Model,
  ModelRequest,
  ModelTurn,
  StopReason,
  ToolChoice,
  ToolDeclaration,
  UnifiedStopReason,
  Usage,
} from './model.js';
export type { ConfirmationDecision, PausedRun, PendingCall } from './paused-run.js';
export type { ProviderMetadata, ProviderOptions } from './provider-metadata.js';
export { checkResume, type ResumeOptions, resumeLoop } from './resume-loop.js';
export { createSession, type Session, type SessionInit } from './session.js';
export type { StreamEvent } from './stream-events.js';
export { type LoopStream, streamLoop } from './stream-loop.js';
export {
  type AnyToolDefinition,
  defineTool,
  everySession,
  type InferToolInput,
  type JsonSchemaObject,
  type StandardToolSchema,
  type ToolContext,
  type ToolDefinition,
  type ToolInputSchema,
  type ToolOutput,
  type ToolResultOutput,
  type ToolRight,
  type ToolSpec,
  toolError,
} from './tool.js';
export { type TurnStreamEventsOptions, turnStreamEvents } from './turn-stream-events.js';
export { addUsage } from './usage.js';
export type { InputValidation } from './validate-input.js';
export type { RefusalReason, Verdict, VerdictKind } from './verdict.js';
