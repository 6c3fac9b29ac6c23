import type { ConfirmationRequest } from './confirmation-request.js';

/**
 * Whether a tool's output may carry instructions from someone other than the application. `untrusted` is
 * the default for every tool that does not say otherwise: a tool that reads mail, pages, files or another
 * server relays text an attacker may have written, and declaring a tool `trusted` is a statement the
 * application makes about where its output comes from (its own database, a clock, a calculator).
 */
export type OutputTrust = 'trusted' | 'untrusted';

/**
 * What the application wants for a gated call (an irreversible or sensitive call in a run that untrusted
 * output has entered):
 * - `pause`: ask the human, with what they need to judge it (the default). The call runs only with a
 *   confirmation given after the untrusted content arrived, for these exact arguments. With the loop's
 *   `confirmation: 'refuse'` the model is told instead, and the request is in the call's verdict.
 * - `refuse`: never run it while untrusted output is in the context.
 * - `allow`: the application accepts the risk for this tool: the ordinary rules apply (an irreversible call
 *   still needs a confirmation of its exact arguments, of any age).
 */
export type TaintPolicy = 'pause' | 'refuse' | 'allow';

/** What a policy hook is asked: the request the human would be shown. */
export type PolicyQuery = ConfirmationRequest;

/**
 * Provenance settings of a run (`LoopOptions.provenance`). Everything is on by default; `false` turns the
 * tracking off (calls are then checked exactly as without provenance, and nothing is recorded).
 */
export interface ProvenanceOptions {
  /** Trust of tools that declare none (`ToolDefinition.outputTrust`). Default `untrusted`. */
  readonly defaultOutputTrust?: OutputTrust;
  /** Per tool name, overriding the tool's own declaration (e.g. for tools the application did not write). */
  readonly outputTrust?: Readonly<Record<string, OutputTrust>>;
  /** Tools the application marks sensitive besides those that declare `sensitive: true`. */
  readonly sensitive?: readonly string[];
  /** Decides per gated call; absent, every gated call is `pause`. May be async. */
  readonly policy?: (query: PolicyQuery) => TaintPolicy | Promise<TaintPolicy>;
  /**
   * Spotlighting: wrap untrusted results in a per-run random marker the model is told about. `true` for every
   * untrusted tool, or the names of the tools to spotlight; tools may also set `spotlight: true`.
   */
  readonly spotlight?: boolean | readonly string[];
  /** Shortest string argument that is looked for verbatim in untrusted output. Default 4 characters. */
  readonly minVerbatimLength?: number;
}
