export { FAULT_CASES, type FaultCase, type FaultExpectation, type FaultMode } from './fault-cases.js';
export { type FaultAnswer, type FaultServer, withFaultServer } from './fault-server.js';
export { FAULT_WIRES, type FaultWire, type HttpFault, type HttpFaultKind } from './fault-wire.js';
export { type InterruptedRunOutcome, playInterruptedRun } from './interrupted-run-scenario.js';
export {
  type FaultOutcome,
  type FaultSdkLimit,
  type FaultSuiteOptions,
  faultProblems,
  playFaultCase,
  runFaultSuite,
  withinLimits,
} from './run-fault-suite.js';
