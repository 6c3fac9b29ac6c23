export { BackedStore } from './backed-store.js';
export { type CatalogueFingerprint, catalogueChanges, catalogueFingerprint } from './catalogue-fingerprint.js';
export {
  createDurableRunner,
  DEFAULT_LEASE_MS,
  type DurableRunner,
  type DurableRunnerOptions,
  type DurableRunResult,
  type RecoverContext,
  type ResumeContext,
  type StartInput,
} from './durable-runner.js';
export type {
  CallStartRequest,
  CallState,
  ClaimRequest,
  DecisionInit,
  DurableStore,
  FinishedRunStatus,
  NewRun,
  ReadJournalOptions,
  RunCall,
  RunClaim,
  RunOutcome,
  RunRecord,
  RunStatus,
  UnknownOutcomeRequest,
} from './durable-store.js';
export { CatalogueChangedError } from './errors/catalogue-changed-error.js';
export { ClaimLostError } from './errors/claim-lost-error.js';
export { InvalidStoreOptionsError } from './errors/invalid-store-options-error.js';
export { RunAlreadyExistsError } from './errors/run-already-exists-error.js';
export { RunClaimConflictError } from './errors/run-claim-conflict-error.js';
export { RunNotFoundError } from './errors/run-not-found-error.js';
export { RunNotResumableError } from './errors/run-not-resumable-error.js';
export { StoreDriverMissingError } from './errors/store-driver-missing-error.js';
export { UnsupportedSchemaVersionError } from './errors/unsupported-schema-version-error.js';
export { chainHash, GENESIS_HASH } from './journal-chain.js';
export { DEFAULT_INLINE_OUTPUT_MAX_BYTES, type JournalPolicy } from './journal-policy.js';
export type {
  CallRecord,
  DecisionRecord,
  JournalHead,
  JournalRecord,
  JournalRow,
  OutcomeUnknownRecord,
  RecoveryRecord,
  StartRecord,
} from './journal-record.js';
export type { JournalSnapshot } from './memory-backend.js';
export { createMemoryStore, type MemoryStore, type MemoryStoreOptions } from './memory-store.js';
export type { ReadonlyJournal } from './readonly-journal.js';
export { redactInputFields } from './redact-input-fields.js';
export { REDACTED, scrubSecrets, scrubSecretText } from './scrub-secrets.js';
export type {
  CallRow,
  ReadTransaction,
  RunRow,
  StoreBackend,
  StoredJournalRow,
  WriteTransaction,
} from './store-backend.js';
export {
  type JournalProblem,
  type JournalSource,
  type JournalVerification,
  type RawJournalRow,
  type VerifyJournalOptions,
  verifyJournal,
} from './verify-journal.js';
