import type { PendingCall } from '@toolcircuit/core';
import type { OutputStream } from '../cli-io.js';
import type { ConfirmAnswer } from './drive-run.js';
import type { TerminalPrompter } from './terminal-prompter.js';

const YES = new Set(['y', 'yes', 'o', 'oui']);

/**
 * Shows a paused irreversible call (tool, exact arguments, argument digest) and asks the human to run it.
 * Anything but yes declines: an irreversible action is never taken on an unclear answer.
 */
export async function confirmOnTerminal(
  prompter: TerminalPrompter,
  out: OutputStream,
  pending: PendingCall,
  humanId: string,
): Promise<ConfirmAnswer> {
  const input = JSON.stringify(pending.input, null, 2).replaceAll('\n', '\n    ');
  out.write(
    `\n${pending.toolName} is irreversible and needs your confirmation (as ${humanId}):\n    ${input}\n    argument digest ${pending.inputDigest.slice(0, 12)}\n`,
  );
  const answer = await prompter.ask('Run it? [y/N] ');
  const approved = answer !== undefined && YES.has(answer.trim().toLowerCase());
  return approved ? { approved, by: humanId } : { approved: false, by: humanId, note: 'declined at the terminal' };
}
