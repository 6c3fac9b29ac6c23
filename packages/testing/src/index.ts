export type {
  Cassette,
  CassetteProtocol,
  CassetteProvenance,
  Interaction,
  RecordedBody,
  RecordedRequest,
  RecordedResponse,
  SseEvent,
} from './cassettes/cassette.js';
export { CassetteFormatError } from './cassettes/cassette-format-error.js';
export type { CassetteIndex, CassetteIndexEntry } from './cassettes/cassette-index.js';
export {
  type CassetteLocation,
  cassettesDirectory,
  type ListCassettesOptions,
  listCassettes,
  loadCassette,
  loadCassetteIndex,
} from './cassettes/load-cassette.js';
export { type ResponseSummary, summarizeResponse } from './cassettes/summarize-response.js';
export { validateCassette } from './cassettes/validate-cassette.js';
// The per-step control scenario the adapters' wire tests share.
export {
  type ArgumentStyle,
  argumentStyleOf,
  buildConformanceCassette,
  buildStructuredOutputCassette,
  CASE_FILE_ANSWER,
  CASE_FILE_OUTPUT_SCHEMA,
  CLOSE_CASE_FILES_RIGHT,
  CONFORMANCE_PROTOCOLS,
  CONFORMANCE_SCENARIOS,
  CONFORMANCE_TOOL_NAMES,
  type ConformanceAssertion,
  type ConformanceBackend,
  type ConformanceCall,
  type ConformanceRun,
  type ConformanceScenario,
  type ConformanceScenarioId,
  type ConformanceScenarioOptions,
  type ConformanceSuiteOptions,
  type ConformanceTestApi,
  type ConformanceTurn,
  type ConformanceWire,
  conformanceCassetteName,
  conformanceCassettesDirectory,
  conformanceWireOf,
  createConformanceCatalogue,
  createConformanceSession,
  createDeferredPerStepScenario,
  createHostedResultScenario,
  createPerStepScenario,
  type DeferredPerStepCall,
  type DeferredPerStepScenario,
  type ExpectedResult,
  type HostedResultScenario,
  loadConformanceCassette,
  loadStructuredOutputCassette,
  type NeutralCall,
  type NeutralResult,
  type NeutralTrace,
  type NeutralTurn,
  neutralTrace,
  type PerStepScenario,
  READ_CASE_FILES_RIGHT,
  runConformanceScenario,
  runConformanceSuite,
  runStructuredOutputScenario,
  STRUCTURED_OUTPUT_SCENARIOS,
  STRUCTURED_OUTPUT_VARIANTS,
  type StructuredOutputRun,
  type StructuredOutputRunOptions,
  type StructuredOutputScenario,
  type StructuredOutputScenarioId,
  type StructuredOutputVariant,
  type StructuredTurn,
  structuredOutputCassetteName,
  structuredOutputLoopOptions,
  structuredOutputProblems,
  type TraceVerdict,
  type TurnPosition,
} from './conformance/index.js';
export {
  createMediaResultCatalogue,
  MEDIA_RESULT_IMAGE_LIMIT,
  MEDIA_RESULT_TURNS,
  type MediaResultRun,
  type MediaResultScenarioOptions,
  mediaResultProblems,
  OVERSIZED_IMAGE_BYTES,
  runMediaResultScenario,
} from './conformance/media-result-scenario.js';
export { createToolSearchCatalogue, TOOL_SEARCH_DEFERRED_TOOLS } from './conformance/tool-search-catalogue.js';
export {
  type ExpectedCall,
  type FallbackPairOptions,
  type FallbackPairOutcome,
  foreignHistoryProblems,
  playFallbackPair,
} from './fallback/index.js';
export {
  FAULT_CASES,
  FAULT_WIRES,
  type FaultAnswer,
  type FaultCase,
  type FaultExpectation,
  type FaultMode,
  type FaultOutcome,
  type FaultSdkLimit,
  type FaultServer,
  type FaultSuiteOptions,
  type FaultWire,
  faultProblems,
  type HttpFault,
  type HttpFaultKind,
  type InterruptedRunOutcome,
  playFaultCase,
  playInterruptedRun,
  runFaultSuite,
  withFaultServer,
  withinLimits,
} from './faults/index.js';
export { withDroppingServer } from './http/dropping-server.js';
export { type ParsedSseEvent, parseSse } from './http/parse-sse.js';
export { coverageColumnOf } from './media/coverage-column.js';
export { MEDIA_PART_SAMPLES, resultWithPart } from './media/media-part-samples.js';
export {
  SYNTHETIC_PDF,
  SYNTHETIC_PDF_BASE64,
  SYNTHETIC_PNG,
  SYNTHETIC_PNG_BASE64,
  SYNTHETIC_WAV,
  SYNTHETIC_WAV_BASE64,
} from './media/synthetic-media.js';
export { startTestAuthorizationServer, type TestAuthorizationServer } from './oauth/test-authorization-server.js';
export { type Recorder, type RecorderOptions, startRecorder } from './record/recorder.js';
export {
  type RecordedWireRequest,
  type RecordingServer,
  type ReplyScript,
  type ScriptedReply,
  startRecordingServer,
} from './record/recording-server.js';
export { SCRUBBED, SECRET_HEADERS, SECRET_QUERY_PARAMS } from './record/scrub-secrets.js';
export { countedUsage } from './replay/counted-usage.js';
export { type MatchFailure, type MatchOptions, matchRequest } from './replay/match-request.js';
export { ReplayIncompleteError } from './replay/replay-incomplete-error.js';
export {
  defaultMatch,
  REPLAY_MISMATCH_STATUS,
  type ReceivedRequest,
  type ReplayMismatch,
  type ReplayOptions,
  type ReplayServer,
  startReplayServer,
} from './replay/replay-server.js';
export { followUpRequest, streamError, streamTurnEnd } from './replay/stream-outcome.js';
export { asksForStream, recordedAsStream } from './replay/streamed.js';
export {
  APPROVAL_WORKLOAD_RIGHTS,
  type ApprovalWorkloadOptions,
  approvalWorkloadCatalogue,
  approvalWorkloadModel,
} from './scripted/approval-workload.js';
export { type ScriptedCassetteOptions, scriptedCassette } from './scripted/scripted-cassette.js';
export {
  createScriptedModel,
  type RecordedModelRequest,
  ScriptExhaustedError,
  type ScriptedCall,
  ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedStep,
  textTurn,
  toolCallsTurn,
} from './scripted/scripted-model.js';
export {
  type ScriptedProvider,
  type ScriptedProviderOptions,
  startScriptedProvider,
} from './scripted/scripted-provider.js';
export {
  createScriptedStreamingModel,
  type ScriptedEvents,
  ScriptedStreamingModel,
  type ScriptedStreamingModelOptions,
  type ScriptedStreamStep,
} from './scripted/scripted-streaming-model.js';
export { loadSyntheticCassette, syntheticCassettesDirectory } from './synthetic/synthetic-cassettes.js';
