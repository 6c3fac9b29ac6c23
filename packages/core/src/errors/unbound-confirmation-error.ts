import { ToolcircuitError } from './toolcircuit-error.js';

/**
 * A confirmation was granted to a store without saying whose it is. One store is often shared by many
 * sessions (a server's database), so a confirmation that names no human could let one human's "yes" run
 * another human's call: it is refused instead. The message says how to bind it.
 */
export class UnboundConfirmationError extends ToolcircuitError {
  readonly kind = 'configuration' as const;
  readonly code = 'unbound_confirmation' as const;
  readonly toolName: string;

  constructor(toolName: string) {
    super(
      `The confirmation of "${toolName}" names no human (humanId), so a store shared by several sessions could ` +
        `use it for anyone's call. Grant confirmationFor("${toolName}", input, { humanId, runId }) to confirm ` +
        'one run, or { humanId, anyRun: true } for every run of that human; or give it to createSession({ ' +
        "confirmations: [...] }), which binds it to the session's human.",
    );
    this.toolName = toolName;
  }
}
