import type { ConfirmationRequest, FlaggedArgument, PendingCall, TaintSourceRef } from '@toolcircuit/core';
import type { OutputStream } from '../cli-io.js';
import type { ConfirmAnswer } from './drive-run.js';
import type { TerminalPrompter } from './terminal-prompter.js';
import { visibleJson, visibleText } from './visible-text.js';

const YES = new Set(['y', 'yes', 'o', 'oui']);

/**
 * Shows a paused call (tool, exact arguments, argument digest) and asks the human to run it. When untrusted
 * content is in the run, also why it is asked: the untrusted sources the model had read, and which argument
 * values were copied from them (and how, when the model rewrote them). Anything but yes declines: an
 * irreversible action is never taken on an unclear answer.
 */
export async function confirmOnTerminal(
  prompter: TerminalPrompter,
  out: OutputStream,
  pending: PendingCall,
  humanId: string,
): Promise<ConfirmAnswer> {
  out.write(confirmationText(pending, humanId));
  const answer = await prompter.ask('Run it? [y/N] ');
  const approved = answer !== undefined && YES.has(answer.trim().toLowerCase());
  return approved ? { approved, by: humanId } : { approved: false, by: humanId, note: 'declined at the terminal' };
}

/** What the human reads before answering. */
export function confirmationText(pending: PendingCall, humanId: string): string {
  const { request } = pending;
  const why = request?.gatedBecause ?? 'irreversible';
  const tool = visibleText(pending.toolName);
  const input = visibleJson(pending.input, 2).replaceAll('\n', '\n    ');
  const lines = [
    '',
    `${tool} is ${why} and needs your confirmation (as ${visibleText(humanId)}):`,
    `    ${input}`,
    `    argument digest ${pending.inputDigest.slice(0, 12)}`,
  ];
  if (request !== undefined) lines.push(...provenanceLines(request));
  return `${lines.join('\n')}\n`;
}

function provenanceLines(request: ConfirmationRequest): string[] {
  const lines = [
    `  Untrusted content the model had read when it asked (it may have been told to ask by it):`,
    ...request.untrustedSources.map((source) => `    - ${sourceText(source)}`),
  ];
  if (request.flaggedArguments.length === 0) {
    lines.push('  No argument value was found in it (a value the model rewrote beyond recognition would not be).');
    return lines;
  }
  lines.push('  Argument values copied from it:');
  for (const flag of request.flaggedArguments) lines.push(`    - ${flagText(flag)}`);
  return lines;
}

function sourceText(source: TaintSourceRef): string {
  const where = source.turn === 0 ? 'already in the conversation' : `turn ${source.turn}`;
  const what =
    source.hosted === true
      ? `${visibleText(source.toolName)} (run by the provider, id ${visibleText(source.callId)})`
      : `${visibleText(source.toolName)} (call ${visibleText(source.callId)})`;
  return `${what}, ${where}`;
}

const HOW: Readonly<Record<NonNullable<FlaggedArgument['match']>, string>> = {
  normalised: 're-cased, re-spaced or with look-alike or invisible characters',
  decoded: 'encoded (base64, URL or hex)',
  joined: 'split over several arguments',
};

function flagText(flag: FlaggedArgument): string {
  const path = flag.path === '' ? '(the arguments)' : visibleText(flag.path);
  const from = flag.foundIn.map((source) => visibleText(source.toolName)).join(', ');
  const how = flag.match === undefined ? '' : ` [${HOW[flag.match]}]`;
  const decoded = flag.decoded === undefined ? '' : `, which decodes to ${visibleJson(flag.decoded)}`;
  const parts = flag.parts === undefined ? '' : ` (pieces ${flag.parts.map(visibleText).join(', ')})`;
  return `${path} = ${visibleJson(flag.value)}${decoded}${parts}, from ${from}${how}`;
}
