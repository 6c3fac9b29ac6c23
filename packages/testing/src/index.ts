export type {
  Cassette,
  CassetteProtocol,
  CassetteProvenance,
  Interaction,
  RecordedBody,
  RecordedRequest,
  RecordedResponse,
  SseEvent,
} from './cassette.js';
export { CassetteFormatError } from './cassette-format-error.js';
export type { CassetteIndex, CassetteIndexEntry } from './cassette-index.js';
export {
  type ArgumentStyle,
  argumentStyleOf,
  buildConformanceCassette,
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
  type ExpectedResult,
  loadConformanceCassette,
  type NeutralCall,
  type NeutralResult,
  type NeutralTrace,
  type NeutralTurn,
  neutralTrace,
  READ_CASE_FILES_RIGHT,
  runConformanceScenario,
  runConformanceSuite,
  type TraceVerdict,
  type TurnPosition,
} from './conformance/index.js';
export { withDroppingServer } from './dropping-server.js';
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
export {
  type CassetteLocation,
  cassettesDirectory,
  type ListCassettesOptions,
  listCassettes,
  loadCassette,
  loadCassetteIndex,
} from './load-cassette.js';
export { type ParsedSseEvent, parseSse } from './parse-sse.js';
export { type Recorder, type RecorderOptions, startRecorder } from './recorder.js';
export {
  type RecordedWireRequest,
  type RecordingServer,
  type ReplyScript,
  type ScriptedReply,
  startRecordingServer,
} from './recording-server.js';
export {
  defaultMatch,
  REPLAY_MISMATCH_STATUS,
  type ReceivedRequest,
  type ReplayMismatch,
  type ReplayOptions,
  type ReplayServer,
  startReplayServer,
} from './replay-server.js';
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
} from './scripted-model.js';
export {
  createScriptedStreamingModel,
  type ScriptedEvents,
  ScriptedStreamingModel,
  type ScriptedStreamingModelOptions,
  type ScriptedStreamStep,
} from './scripted-streaming-model.js';
export { SCRUBBED, SECRET_HEADERS, SECRET_QUERY_PARAMS } from './scrub-secrets.js';
export { type ResponseSummary, summarizeResponse } from './summarize-response.js';
export { validateCassette } from './validate-cassette.js';
