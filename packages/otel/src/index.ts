export { GEN_AI, GEN_AI_OPERATION, genAiProviderName } from './gen-ai-attributes.js';
export { createLoopTracing, type LoopTracing, type LoopTracingOptions } from './loop-tracing.js';
export { entryDigestOf } from './observed-options.js';
export { TOOLCIRCUIT, TOOLCIRCUIT_EVENT } from './toolcircuit-attributes.js';
export type { TraceSink } from './trace-file-observer.js';
export {
  type CallGateRecord,
  type CallRecord,
  type DecisionRecord,
  type InvocationEndRecord,
  type InvocationRecord,
  type ModelCallRecord,
  type PauseRecord,
  TRACE_FORMAT_VERSION,
  type TraceHeaderRecord,
  type TraceRecord,
  type TraceSource,
  traceRecordLine,
} from './trace-record.js';
