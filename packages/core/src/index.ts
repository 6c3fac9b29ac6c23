export { BUILTIN_TOOL_KINDS, type BuiltinTool, type BuiltinToolKind } from './catalogue/builtin-tool.js';
export { type Catalogue, type CatalogueEntry, createCatalogue, type LenientCatalogue } from './catalogue/catalogue.js';
export {
  type HostedTool,
  type HostedToolKind,
  type HostedToolOptions,
  hostedTool,
  providerTool,
} from './catalogue/hosted-tool.js';
// Per-step control, per-tool provider features and call repair.
export { descriptionWithExamples } from './catalogue/provider-features.js';
export type { CatalogueMode, CatalogueOptions, RefusedTool } from './catalogue/refused-tool.js';
export type { ValidationIssue } from './catalogue/render-validation-errors.js';
export type { TextGrammar, TextInput } from './catalogue/text-input.js';
export { defineTextTool, type TextToolSpec } from './catalogue/text-tool.js';
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
  type ToolSearchHints,
  type ToolSpec,
  toolError,
} from './catalogue/tool.js';
export { type ToolRefusal, toolRefusal } from './catalogue/tool-refusal.js';
export { DEFAULT_TOOL_SEARCH_NAME, type ToolSearch, type ToolSearchOptions } from './catalogue/tool-search.js';
export type { InputValidation } from './catalogue/validate-input.js';
export { describeMedia } from './content/describe-media.js';
export {
  type JournalContentOptions,
  type JournaledMediaPart,
  type JournaledResultContent,
  journalContentOf,
} from './content/journal-content.js';
export {
  mediaBase64,
  mediaByteLength,
  mediaBytes,
  mediaDataUrl,
  mediaDigest,
  mediaText,
} from './content/media-data.js';
export {
  type FileContentPart,
  type ImageContentPart,
  isAudioMediaType,
  isTextMediaType,
  type MediaContentPart,
  type MediaSource,
  SUPPORTED_AUDIO_MEDIA_TYPES,
  SUPPORTED_FILE_MEDIA_TYPES,
  SUPPORTED_IMAGE_MEDIA_TYPES,
} from './content/media-part.js';
export {
  mediaPartChange,
  type ResultContentChange,
  recordResultContentChanges,
  resultContentChangesOf,
} from './content/result-content-change.js';
export {
  DEFAULT_MAX_FILE_BYTES,
  DEFAULT_MAX_IMAGE_BYTES,
  type ResultContentLimits,
} from './content/result-content-limits.js';
export {
  RESULT_PART_KINDS,
  type ResultCoverage,
  type ResultCoverageTable,
  type ResultPartKind,
  renderResultCoverageTable,
  resultPartKindOf,
} from './content/result-coverage.js';
export {
  type ContextPolicy,
  type ContextReport,
  DEFAULT_KEEP_TURNS,
  type SummariseInput,
} from './context/context-policy.js';
export { type CostBudget, costBudget } from './cost/cost-budget.js';
export { costOfTurn, type PricedModel } from './cost/cost-of-turn.js';
export type { LongPromptPrice, ModelPrice } from './cost/model-price.js';
export { priceOf } from './cost/price-of.js';
export { PRICE_TABLE } from './cost/price-table.js';
export { type RunCost, runCost } from './cost/run-cost.js';
export { addCost, type Cost, turnCost } from './cost/turn-cost.js';
export type {
  DataFlowOptions,
  PlanOptions,
  QuarantineOptions,
  SinkPolicy,
  SinkQuery,
  TrustedOnly,
} from './data-flow/data-flow-options.js';
export {
  type CheckedArgument,
  type DataFlowReport,
  type JournalDataFlow,
  journalDataFlowOf,
  type ReferencedArgument,
  type TrustedOrigin,
} from './data-flow/data-flow-report.js';
export type { Embedder, EmbeddingPurpose } from './embeddings/embedder.js';
export { DEFAULT_RANK_FUSION, fuseRankings, type RankFusion } from './embeddings/fuse-rankings.js';
export {
  createHybridToolSearch,
  type HybridToolSearch,
  type ToolEmbeddingsOptions,
} from './embeddings/hybrid-tool-search.js';
export { toolEmbeddingText, toolVectorKey } from './embeddings/tool-embedding-text.js';
export { InMemoryToolVectorCache, type ToolVectorCache } from './embeddings/tool-vector-cache.js';
export { abortedProviderError } from './errors/aborted-provider-error.js';
export { ConfigurationError } from './errors/configuration-error.js';
export { DuplicateToolNameError } from './errors/duplicate-tool-name-error.js';
export { EmbeddingResponseError } from './errors/embedding-response-error.js';
export { InvalidLoopOptionsError } from './errors/invalid-loop-options-error.js';
export { InvalidOutputSchemaError } from './errors/invalid-output-schema-error.js';
export { type InvalidResponseReceived, invalidResponseError } from './errors/invalid-response-error.js';
export { InvalidResumeError } from './errors/invalid-resume-error.js';
export { InvalidToolDefinitionError } from './errors/invalid-tool-definition-error.js';
export { InvalidToolNameError } from './errors/invalid-tool-name-error.js';
export { JournalWriteError } from './errors/journal-write-error.js';
export { type OutputIssue, OutputValidationError } from './errors/output-validation-error.js';
export { PausedRunResumedError } from './errors/paused-run-resumed-error.js';
export { ProviderError, type ProviderErrorCode, type ProviderErrorInit } from './errors/provider-error.js';
export { RootSchemaNotObjectError } from './errors/root-schema-not-object-error.js';
export { SchemaCompileError } from './errors/schema-compile-error.js';
export { StateSealError, type StateSealProblem } from './errors/state-seal-error.js';
export { streamInterruptedError } from './errors/stream-interrupted-error.js';
export { ToolcircuitError } from './errors/toolcircuit-error.js';
export { UnboundConfirmationError } from './errors/unbound-confirmation-error.js';
export { turnOfUnsupportedCall, unsupportedCallError } from './errors/unsupported-call-error.js';
export { UnsupportedSchemaError } from './errors/unsupported-schema-error.js';
export { isAuthorized } from './execute/authorize.js';
export type { ConfirmationMode, ExecutionContext, ToolStartEvent } from './execute/execution-context.js';
export type { ExecutionOutcome } from './execute/execution-outcome.js';
export { executeCall } from './execute/executor.js';
export type {
  JournalRepair,
  RepairedCall,
  RepairProblem,
  RepairRequest,
  RepairToolCall,
} from './execute/repair-call.js';
export type { RefusalReason, Verdict, VerdictKind } from './execute/verdict.js';
export { type AnsweringModel, answeringModelOf, type FailedModel } from './fallback/answering-model.js';
export { type FallbackModel, type FallbackOptions, fallbackModel } from './fallback/fallback-model.js';
export {
  backToPrimaryAfter,
  type FallbackFailure,
  type FallbackPolicy,
  type FallbackPosition,
} from './fallback/fallback-policy.js';
export { type ModelChoice, oneModel } from './fallback/one-model.js';
export { GEMINI_FOREIGN_CALL_SIGNATURE } from './fallback/request-for-provider.js';
export { isEventStream } from './http/is-event-stream.js';
export { isTransportFailure } from './http/is-transport-failure.js';
export { type HeaderReader, retryAfterMs } from './http/retry-after.js';
export type { CallProtocol } from './journal/call-protocol.js';
export { InMemoryJournal } from './journal/in-memory-journal.js';
export type {
  AnsweringModelNote,
  Journal,
  JournalAppendDetail,
  JournalEntry,
  JournalNote,
  JournalProvenance,
  ProviderPartNote,
  TurnNote,
} from './journal/journal.js';
export { type ConversionCache, cachedConversion } from './json/cached-conversion.js';
export {
  type JsonTextCache,
  sealEachForReuse,
  sealForReuse,
  stringifyRequestArray,
  stringifyRequestBody,
} from './json/cached-json-text.js';
export { canonicalJson, jsonDigest } from './json/canonical-json.js';
export type { JsonObject, JsonValue } from './json/json.js';
export { continueLoop } from './loop/continue-loop.js';
export type { LoopEventListener } from './loop/event-listener.js';
export { INTERRUPTED_RUN_SEAL, type InterruptedRun, interruptedRunOfError } from './loop/interrupted-run.js';
export { DEFAULT_CONCURRENCY, DEFAULT_MAX_TURNS } from './loop/loop-defaults.js';
export type { CallEvent, LoopHooks, ResultEvent, RetryEvent, TurnEvent } from './loop/loop-hooks.js';
export type { LoopOptions } from './loop/loop-options.js';
export type { LoopResult, LoopStatus } from './loop/loop-result.js';
export type {
  LoopCallVerdictEvent,
  LoopEndEvent,
  LoopErrorEvent,
  LoopEventTag,
  LoopModelEvent,
  LoopReplyEvent,
  LoopRetryEvent,
  LoopStreamEvent,
  LoopToolResultEvent,
  LoopTurnEndEvent,
  LoopTurnStartEvent,
} from './loop/loop-stream-event.js';
export type { ConfirmationDecision, PausedRun, PendingCall } from './loop/paused-run.js';
export { PAUSED_RUN_SEAL } from './loop/paused-run-of.js';
export { untrustedSourcesOf } from './loop/restored-provenance.js';
export { checkResume, type ResumeOptions, resumeLoop } from './loop/resume-loop.js';
export { type RetryPolicy, retryDelayMs } from './loop/retry-policy.js';
export { runLoop } from './loop/run-loop.js';
export { type LoopStream, streamLoop } from './loop/stream-loop.js';
export type {
  AssistantContentPart,
  AssistantMessage,
  JsonContentPart,
  Message,
  ReasoningPart,
  ResultDataFlow,
  SystemMessage,
  TextPart,
  ToolCallPart,
  ToolMessage,
  ToolResultContent,
  ToolResultContentPart,
  ToolResultPart,
  UserMessage,
  VouchedValue,
} from './messages/messages.js';
export { toolCallsOf, toolResultText } from './messages/messages.js';
export type {
  ContextEditing,
  DeferredTools,
  Model,
  ModelRequest,
  OutputFormat,
  ToolChoice,
  ToolDeclaration,
} from './messages/model.js';
export type { ModelTurn, StopReason, UnifiedStopReason } from './messages/model-turn.js';
export type { ProviderMetadata, ProviderOptions } from './messages/provider-metadata.js';
export type { ProviderPart } from './messages/provider-part.js';
export type { SourceLocation, SourcePart } from './messages/source-part.js';
export type { StreamEvent } from './messages/stream-events.js';
export { textRangeOfCodePoints, textRangeOfUtf8Bytes } from './messages/text-ranges.js';
export { type TurnStreamEventsOptions, turnStreamEvents } from './messages/turn-stream-events.js';
export {
  type UntrustedContent,
  type UntrustedItem,
  untrustedContentOf,
} from './messages/untrusted-content.js';
export type { Usage } from './messages/usage.js';
export { addUsage } from './messages/usage.js';
export type { FinalAnswerReading } from './output/final-answer-turn.js';
export type { InferOutput, OutputOptions, OutputRefusal, OutputSchema } from './output/output-options.js';
export type { LoopOutputPartialEvent } from './output/partial-output-events.js';
export {
  type ConfirmationRequest,
  type FlaggedArgument,
  informedConfirmation,
} from './provenance/confirmation-request.js';
export type { OutputTrust, PolicyQuery, ProvenanceOptions, TaintPolicy } from './provenance/provenance-options.js';
export type { TaintSource, TaintSourceRef } from './provenance/taint-source.js';
export { MIN_SEAL_KEY_BYTES, type SealKey, sealKeyProblem, sealKeyRing, sealSecretBytes } from './seal/seal-key.js';
export type { SealOptions } from './seal/seal-options.js';
export { checkStateSeal, type SealedKind, type StateSeal, sealOfText, sealState } from './seal/state-seal.js';
export {
  createToolSearchIndex,
  DEFAULT_TOOL_SEARCH_TUNING,
  type SearchableTool,
  type ToolFieldWeights,
  type ToolSearchFilter,
  type ToolSearchHit,
  type ToolSearchIndex,
  type ToolSearchTuning,
} from './search/tool-search-index.js';
export {
  argumentDigest,
  type Confirmation,
  type ConfirmationScope,
  type ConfirmationStore,
  confirmationFor,
  InMemoryConfirmations,
} from './session/confirm.js';
export { ResumeConfirmations } from './session/resume-confirmations.js';
export type { ResumeTokenStore } from './session/resume-tokens.js';
export { createSession, type Session, type SessionInit } from './session/session.js';
export type { PrepareStep, StepContext, StepPlan, StepSettings } from './step/step-settings.js';
export {
  callBudget,
  type StopCondition,
  type StopContext,
  stopCondition,
  tokenBudget,
  toolCalled,
} from './step/stop-condition.js';
