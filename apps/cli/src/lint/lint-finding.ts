import type { LintLevel, LintRuleId } from './lint-rules.js';

/** One problem in a catalogue. Locations are logical (tool, JSON pointer): catalogue files have no lines we track. */
export interface LintFinding {
  readonly rule: LintRuleId;
  readonly level: LintLevel;
  readonly message: string;
  readonly tool?: string;
  /** JSON pointer into the tool's input schema (`''` is the root). */
  readonly path?: string;
  /** The provider the finding is about (`anthropic`, `openai`, `gemini`…). */
  readonly provider?: string;
  /** The other tool of an overlapping pair. */
  readonly otherTool?: string;
  readonly score?: number;
  readonly sharedTerms?: readonly string[];
}

/** The lint result for one file. */
export interface LintReport {
  readonly file: string;
  readonly tools: number;
  readonly findings: readonly LintFinding[];
  readonly counts: LintCounts;
}

export interface LintCounts {
  readonly error: number;
  readonly warning: number;
  readonly note: number;
  /** Findings per rule id; every rule is listed, with 0 when it found nothing. */
  readonly byRule: Readonly<Record<LintRuleId, number>>;
}
