/**
 * The trace format the viewer reads: `TraceRecord` of `@toolcircuit/otel` (type-only, so nothing of it is
 * bundled). Journal exports are read field by field (see `journal-records.ts`).
 */
export type { Usage } from '@toolcircuit/core';
export type {
  CallGateRecord,
  CallRecord,
  DecisionRecord,
  InvocationEndRecord,
  InvocationRecord,
  ModelCallRecord,
  PauseRecord,
  TraceRecord,
} from '@toolcircuit/otel';
