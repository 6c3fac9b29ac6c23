/** The adapter conformance suite: scenarios as data, their cassettes, the neutral trace and the runners. */
export {
  buildConformanceCassette,
  conformanceCassetteName,
  conformanceCassettesDirectory,
  loadConformanceCassette,
} from './conformance-cassette.js';
export {
  CLOSE_CASE_FILES_RIGHT,
  CONFORMANCE_TOOL_NAMES,
  createConformanceCatalogue,
  createConformanceSession,
  READ_CASE_FILES_RIGHT,
} from './conformance-catalogue.js';
export {
  type ArgumentStyle,
  argumentStyleOf,
  type ConformanceCall,
  type ConformanceScenario,
  type ConformanceScenarioId,
  type ConformanceTurn,
} from './conformance-scenario.js';
export { CONFORMANCE_SCENARIOS } from './conformance-scenarios.js';
export type { ConformanceWire, ExpectedResult, TurnPosition } from './conformance-wire.js';
export { CONFORMANCE_PROTOCOLS, conformanceWireOf } from './conformance-wires.js';
export {
  createDeferredPerStepScenario,
  type DeferredPerStepCall,
  type DeferredPerStepScenario,
} from './deferred-per-step-scenario.js';
export { createHostedResultScenario, type HostedResultScenario } from './hosted-result-scenario.js';
export {
  createMediaResultCatalogue,
  MEDIA_RESULT_IMAGE_LIMIT,
  MEDIA_RESULT_TURNS,
  type MediaResultRun,
  type MediaResultScenarioOptions,
  mediaResultProblems,
  OVERSIZED_IMAGE_BYTES,
  runMediaResultScenario,
} from './media-result-scenario.js';
export {
  type NeutralCall,
  type NeutralResult,
  type NeutralTrace,
  type NeutralTurn,
  neutralTrace,
  type TraceVerdict,
} from './neutral-trace.js';
export { createPerStepScenario, type PerStepScenario } from './per-step-scenario.js';
export {
  type ConformanceBackend,
  type ConformanceRun,
  type ConformanceScenarioOptions,
  runConformanceScenario,
} from './run-conformance-scenario.js';
export {
  type ConformanceAssertion,
  type ConformanceSuiteOptions,
  type ConformanceTestApi,
  runConformanceSuite,
} from './run-conformance-suite.js';
export {
  loadStructuredOutputCassette,
  runStructuredOutputScenario,
  type StructuredOutputRun,
  type StructuredOutputRunOptions,
  structuredOutputLoopOptions,
  structuredOutputProblems,
} from './run-structured-output-scenario.js';
export {
  buildStructuredOutputCassette,
  CASE_FILE_ANSWER,
  CASE_FILE_OUTPUT_SCHEMA,
  STRUCTURED_OUTPUT_SCENARIOS,
  STRUCTURED_OUTPUT_VARIANTS,
  type StructuredOutputScenario,
  type StructuredOutputScenarioId,
  type StructuredOutputVariant,
  type StructuredTurn,
  structuredOutputCassetteName,
} from './structured-output-scenario.js';
