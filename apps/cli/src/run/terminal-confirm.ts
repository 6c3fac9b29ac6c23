import type {
  ConfirmationRequest,
  DataFlowReport,
  FlaggedArgument,
  PendingCall,
  TaintSourceRef,
  TrustedOrigin,
  VouchedValue,
} from '@toolcircuit/core';
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
  if (!approved) return { approved: false, by: humanId, note: 'declined at the terminal' };
  // Values no trusted source holds: the human types them (a yes alone does not let the call through).
  const vouched: VouchedValue[] = [];
  for (const path of pending.dataFlow?.vouchFor ?? []) {
    const typed = await prompter.ask(`Type the value of ${visibleText(path)} yourself (empty: do not vouch): `);
    if (typed !== undefined && typed.trim() !== '') vouched.push({ path, value: typed.trim() });
  }
  return { approved, by: humanId, ...(vouched.length === 0 ? {} : { vouched }) };
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
  if (pending.dataFlow !== undefined) lines.push(...dataFlowLines(pending.dataFlow));
  return `${lines.join('\n')}\n`;
}

/** Where the values came from, as the run's data-flow options found: documents, trusted sources, none. */
function dataFlowLines(report: DataFlowReport): string[] {
  const lines: string[] = [];
  for (const reference of report.references ?? []) {
    lines.push(
      `  ${visibleText(reference.path)} = ${visibleJson(reference.value)}: taken from document ${visibleText(reference.handle)}, which ${visibleText(reference.toolName)} returned (call ${visibleText(reference.callId)})`,
    );
  }
  for (const checked of report.checked ?? []) {
    lines.push(`  ${visibleText(checked.path)} = ${visibleJson(checked.value)}: ${originText(checked.trustedIn)}`);
  }
  if (report.refusedBy === 'trusted-only' && (report.vouchFor?.length ?? 0) > 0) {
    lines.push(
      `  This call runs only if you type ${(report.vouchFor ?? []).map(visibleText).join(', ')} yourself: answering yes without typing the value does not let it through.`,
    );
  }
  return lines;
}

function originText(origin: TrustedOrigin | undefined): string {
  if (origin === undefined) return 'in nothing you wrote nor in any trusted source';
  switch (origin.kind) {
    case 'user':
      return 'in what you wrote';
    case 'system':
      return "in the application's instructions";
    case 'tool':
      return `in the output of ${visibleText(origin.toolName)} (trusted)`;
    case 'vouched':
      return `vouched for by ${visibleText(origin.by)}`;
    case 'application':
      return 'vouched for by the application';
  }
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
