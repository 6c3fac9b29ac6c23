export { type FallbackPairOptions, type FallbackPairOutcome, playFallbackPair } from './fallback-pair-scenario.js';
export { type ExpectedCall, foreignHistoryProblems } from './foreign-history-problems.js';
