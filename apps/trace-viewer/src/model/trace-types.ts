/**
 * The trace format the viewer reads: `TraceRecord` of `@toolcircuit/otel` (type-only, so nothing of it is
 * bundled), and the journal entry shapes of core and the stores, which the viewer also opens.
 */

export type { JournalEntry, JsonValue, RefusalReason, Usage, VerdictKind } from '@toolcircuit/core';
export type {
  CallRecord,
  DecisionRecord,
  InvocationEndRecord,
  InvocationRecord,
  ModelCallRecord,
  PauseRecord,
  TraceRecord,
} from '@toolcircuit/otel';

import type { ToolResultContent } from '@toolcircuit/core';

export type ToolResultContentView = ToolResultContent;
