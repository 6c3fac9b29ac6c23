/**
 * toolcircuit's own span attributes: what the four checks decided and why, so a trace answers "why did
 * this call not run?" without the journal, and the journal entry's digest, so both can be cross-checked.
 */
export const TOOLCIRCUIT = {
  runId: 'toolcircuit.run.id',
  /** `start` for `runLoop`/`streamLoop`, `resume` for `resumeLoop`, `continue` for `continueLoop`. */
  invocation: 'toolcircuit.invocation',
  runStatus: 'toolcircuit.run.status',
  /** For a run a stop condition ended (`stopped`): the condition's name. */
  stoppedBy: 'toolcircuit.run.stopped_by',
  /** On a `chat` span: the names of the catalogue tools offered at that step (`activeTools`, `prepareStep`). */
  requestTools: 'toolcircuit.request.tools',
  /** On a `chat` span: the step's tool choice (`auto`, `none`, `required`, `tool:<name>`). */
  requestToolChoice: 'toolcircuit.request.tool_choice',
  /** On a `chat` span: the kinds of hosted tools offered (`web_search`, `code_execution`, `provider`). */
  requestHostedTools: 'toolcircuit.request.hosted_tools',
  sessionId: 'toolcircuit.session.id',
  turn: 'toolcircuit.turn',
  turns: 'toolcircuit.turns',
  /** The unified stop reason (`gen_ai.response.finish_reasons` keeps the provider's own value). */
  stopReason: 'toolcircuit.stop_reason',
  callIndex: 'toolcircuit.call.index',
  verdict: 'toolcircuit.verdict',
  reason: 'toolcircuit.reason',
  /** The model-facing refusal or failure text; content, so only with content capture. */
  reasonMessage: 'toolcircuit.reason.message',
  /** The right the third check looked for (`*every-session*` for tools open to every session). */
  right: 'toolcircuit.right',
  rightHeld: 'toolcircuit.right.held',
  irreversible: 'toolcircuit.irreversible',
  /** SHA-256 of the input's canonical JSON: what a human's confirmation of an irreversible call refers to. */
  inputDigest: 'toolcircuit.input.digest',
  confirmationDigest: 'toolcircuit.confirmation.digest',
  outputDigest: 'toolcircuit.output.digest',
  /** Earlier calls of the same tool in this run that came back as errors: how often the model retried. */
  retries: 'toolcircuit.retries',
  /** The call comes back after a pause, with the human's decision (`resumeLoop`). */
  resumed: 'toolcircuit.resumed',
  timeoutMs: 'toolcircuit.timeout_ms',
  /** SHA-256 of the canonical JSON of the journal entry (without `seq`) the executor appended for this call. */
  journalEntryDigest: 'toolcircuit.journal.entry_digest',
  /** Where the call came from: the model response that asked for it. */
  provenanceResponseId: 'toolcircuit.provenance.response_id',
  provenanceTurn: 'toolcircuit.provenance.turn',
  /** The tool's output trust (`trusted` / `untrusted`), from the call's journal entry. */
  provenanceOutputTrust: 'toolcircuit.provenance.output_trust',
  /** How many untrusted results were in the context when the model made this call (its taint). */
  provenanceTaintedBy: 'toolcircuit.provenance.tainted_by',
  /** Why the call needed a fresh, informed confirmation (`irreversible` / `sensitive`), when it did. */
  provenanceGatedBecause: 'toolcircuit.provenance.gated_because',
  /** The taint digest such a confirmation had to name. */
  provenanceTaintDigest: 'toolcircuit.provenance.taint_digest',
  /** Paths of the argument values found verbatim in untrusted output (never the values). */
  provenanceFlaggedArguments: 'toolcircuit.provenance.flagged_arguments',
  /** Which data-flow option refused or held the call (`trusted-only`, `plan`), when one did. */
  dataFlowRefusedBy: 'toolcircuit.data_flow.refused_by',
  /** The trusted-only paths whose values no trusted source holds (the human may vouch for them). */
  dataFlowVouchFor: 'toolcircuit.data_flow.vouch_for',
  /** Where each trusted-only value was found: `/iban=user`, `/amount=vouched:sam`, `/to=tool:get_contacts`. */
  dataFlowOrigins: 'toolcircuit.data_flow.origins',
  /** Values taken from quarantined documents: `/iban=$doc1.iban<read_invoice>` (never the values). */
  dataFlowReferences: 'toolcircuit.data_flow.references',
  /**
   * On an `execute_tool` span of a call that travelled over a wire protocol (an imported MCP tool): the
   * protocol (`mcp`), the revision the two sides negotiated (`2026-07-28`, `2025-11-25`…), this side's role
   * (`client`), and the peer's name.
   */
  protocolName: 'toolcircuit.protocol.name',
  protocolRevision: 'toolcircuit.protocol.revision',
  protocolRole: 'toolcircuit.protocol.role',
  protocolPeer: 'toolcircuit.protocol.peer',
  providerErrorCode: 'toolcircuit.provider_error.code',
  /** On the `toolcircuit.paused` event: the calls held for the human, in order. */
  pausedCallIds: 'toolcircuit.paused.call_ids',
  pausedToolNames: 'toolcircuit.paused.tool_names',
  pausedDigests: 'toolcircuit.paused.digests',
  /** On the `toolcircuit.decision` event. */
  decisionApproved: 'toolcircuit.decision.approved',
  /** The paths of the values the human vouched for in the decision (typed or chosen; never the values). */
  decisionVouched: 'toolcircuit.decision.vouched',
  providerErrorRetryable: 'toolcircuit.provider_error.retryable',
  /**
   * On a `chat` span of a run given a fallback list: the place in the list of the model that answered (0: the
   * primary; `gen_ai.provider.name` and `gen_ai.request.model` then name that model), and the models that
   * failed the turn first (`anthropic:claude-sonnet-5-5 overloaded 529`).
   */
  fallbackMember: 'toolcircuit.fallback.member',
  fallbackFrom: 'toolcircuit.fallback.from',
  /**
   * On a `chat` span: what the turn cost in US dollars, at the price of the model that answered it (the run's
   * `prices` over the shipped table). A model without a price has no `cost.usd` but `cost.unknown`, saying
   * why: never a zero.
   */
  costUsd: 'toolcircuit.cost.usd',
  costUnknown: 'toolcircuit.cost.unknown',
} as const;

/** Span events on the agent span. */
export const TOOLCIRCUIT_EVENT = {
  paused: 'toolcircuit.paused',
  decision: 'toolcircuit.decision',
} as const;
