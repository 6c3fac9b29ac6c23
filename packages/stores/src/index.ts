export { CatalogueChangedError } from './errors/catalogue-changed-error.js';
export { ClaimLostError } from './errors/claim-lost-error.js';
export { InvalidJournalAnchorError } from './errors/invalid-journal-anchor-error.js';
export { InvalidStoreOptionsError } from './errors/invalid-store-options-error.js';
export { NotAStoreError } from './errors/not-a-store-error.js';
export { RunAlreadyExistsError } from './errors/run-already-exists-error.js';
export { RunClaimConflictError } from './errors/run-claim-conflict-error.js';
export { RunClaimHeldError } from './errors/run-claim-held-error.js';
export { RunNotFoundError } from './errors/run-not-found-error.js';
export { RunNotResumableError } from './errors/run-not-resumable-error.js';
export { StoreCorruptError } from './errors/store-corrupt-error.js';
export { StoreDriverMissingError } from './errors/store-driver-missing-error.js';
export { isStoreError, StoreError, type StoreErrorInit } from './errors/store-error.js';
export { StoreReadOnlyError } from './errors/store-read-only-error.js';
export { StoreTimeoutError } from './errors/store-timeout-error.js';
export { StoreUnavailableError } from './errors/store-unavailable-error.js';
export { UnsupportedSchemaVersionError } from './errors/unsupported-schema-version-error.js';
export { fileAnchorSink, readAnchorFile } from './journal/file-anchor-sink.js';
export { type JournalAnchor, type JournalAnchorSink, parseJournalAnchor } from './journal/journal-anchor.js';
export { chainHash, GENESIS_HASH, keyedChainHash } from './journal/journal-chain.js';
export type { JournalKey, JournalKeys } from './journal/journal-key.js';
export { DEFAULT_INLINE_OUTPUT_MAX_BYTES, type JournalPolicy } from './journal/journal-policy.js';
export type {
  CallRecord,
  DecisionRecord,
  JournalHead,
  JournalRecord,
  JournalRow,
  OutcomeUnknownRecord,
  RecoveryRecord,
  RetryRecord,
  StartRecord,
} from './journal/journal-record.js';
export { redactInputFields } from './journal/redact-input-fields.js';
export { REDACTED, scrubSecrets, scrubSecretText } from './journal/scrub-secrets.js';
export {
  type JournalProblem,
  type JournalSource,
  type JournalVerification,
  type RawJournalRow,
  type VerifyJournalOptions,
  verifyJournal,
} from './journal/verify-journal.js';
export type { JournalSnapshot } from './memory/memory-backend.js';
export { createMemoryStore, type MemoryStore, type MemoryStoreOptions } from './memory/memory-store.js';
export {
  createDurableRunner,
  DEFAULT_LEASE_MS,
  type DurableRunner,
  type DurableRunnerOptions,
  type DurableRunResult,
  type PerCallOptions,
  type RecoverContext,
  type ResumeContext,
  type StartInput,
} from './runner/durable-runner.js';
export {
  type ExpiredRunRecoverer,
  type LeaseSweep,
  type LeaseSweepOptions,
  type RecoverExpiredOptions,
  type RecoveredRun,
  recoverExpiredRuns,
  startLeaseSweep,
} from './runner/lease-sweep.js';
export { BackedStore, type BackedStoreOptions } from './store/backed-store.js';
export { type CatalogueFingerprint, catalogueChanges, catalogueFingerprint } from './store/catalogue-fingerprint.js';
export type {
  AnchorJournalOptions,
  CallStartRequest,
  CallState,
  ClaimRequest,
  DecisionInit,
  DurableStore,
  ExpiredClaim,
  FinishedRunStatus,
  HeldCallEntry,
  NewClaimedRun,
  NewRun,
  ReadJournalOptions,
  RetryRequest,
  RunCall,
  RunClaim,
  RunOutcome,
  RunRecord,
  RunStatus,
  StartedTurn,
  StoredRunEvent,
  UnknownOutcomeRequest,
} from './store/durable-store.js';
export type { ReadonlyJournal } from './store/readonly-journal.js';
export type {
  CallRow,
  ReadTransaction,
  RunRow,
  StoreBackend,
  StoredJournalRow,
  WriteTransaction,
} from './store/store-backend.js';
export { DEFAULT_WRITE_RETRY_MS } from './store/store-retry.js';
