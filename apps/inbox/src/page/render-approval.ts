import type { ApprovalView } from '@toolcircuit/server';
import { renderJson, renderMarked } from './render-json.js';

export interface ApprovalHandlers {
  decide(approval: ApprovalView, approved: boolean, note: string): void;
}

/**
 * One pending call as the human judges it: the exact arguments, and once untrusted content is in the run,
 * why the call was held, each untrusted source with its excerpt, and the values copied from those sources,
 * marked in both the arguments and the excerpts.
 */
export function renderApproval(approval: ApprovalView, handlers: ApprovalHandlers): HTMLLIElement {
  const key = `${approval.runId}:${approval.callId}`;
  const li = document.createElement('li');
  li.className = 'approval';
  li.dataset['approval'] = key;
  li.dataset['tool'] = approval.toolName;
  const titleId = `approval-${cssId(key)}`;
  li.setAttribute('aria-labelledby', titleId);

  const title = element('h3', `${approval.toolName}`);
  title.id = titleId;
  li.append(title, element('p', `Run ${approval.runId}, turn ${approval.turn}, call ${approval.callId}`, 'hint'));
  if (approval.gatedBecause !== undefined) {
    const sources = approval.untrustedSources.length;
    li.append(
      element(
        'p',
        `Held because it is ${approval.gatedBecause} and came after untrusted content (${sources} source${sources === 1 ? '' : 's'}). Values marked below were copied from it.`,
        'gated',
      ),
    );
  }

  li.append(element('h4', 'Exact arguments'));
  const args = document.createElement('pre');
  args.dataset['arguments'] = '';
  args.setAttribute('aria-label', `Arguments of ${approval.toolName}`);
  args.append(renderJson(approval.input, new Set(approval.flaggedArguments.map((flag) => flag.path))));
  li.append(args);

  if (approval.flaggedArguments.length > 0) {
    li.append(element('h4', 'Copied from untrusted content'));
    const list = document.createElement('ul');
    list.className = 'flagged';
    for (const flag of approval.flaggedArguments) {
      const from = flag.foundIn.map((source) => `${source.toolName} (call ${source.callId})`).join(', ');
      list.append(
        element(
          'li',
          `${flag.path} = ${JSON.stringify(flag.value)} — found in ${from}${flag.match === undefined ? '' : ` (${flag.match})`}`,
        ),
      );
    }
    li.append(list);
  }

  for (const source of approval.untrustedSources) {
    li.append(element('h4', `Untrusted source: ${source.toolName} (call ${source.callId}, turn ${source.turn})`));
    const excerpt = document.createElement('pre');
    excerpt.dataset['excerpt'] = source.callId;
    excerpt.setAttribute('aria-label', `Excerpt of what ${source.toolName} returned`);
    const values = approval.flaggedArguments
      .filter((flag) => flag.foundIn.some((found) => found.callId === source.callId && found.turn === source.turn))
      .map((flag) => flag.decoded ?? String(flag.value));
    excerpt.append(renderMarked(`${source.excerpt}${source.truncated ? ' …' : ''}`, values));
    li.append(excerpt);
  }

  const form = document.createElement('div');
  form.className = 'decide';
  const noteId = `note-${cssId(key)}`;
  const label = element('label', 'Note to the model (optional)');
  label.setAttribute('for', noteId);
  const note = document.createElement('input');
  note.id = noteId;
  note.type = 'text';
  const buttons = document.createElement('div');
  buttons.className = 'actions';
  const approve = element('button', 'Approve', 'approve');
  approve.setAttribute('type', 'button');
  approve.dataset['decision'] = 'approve';
  approve.setAttribute('aria-label', `Approve ${approval.toolName} with these arguments`);
  const decline = element('button', 'Decline', 'decline');
  decline.setAttribute('type', 'button');
  decline.dataset['decision'] = 'decline';
  decline.setAttribute('aria-label', `Decline ${approval.toolName}`);
  approve.addEventListener('click', () => handlers.decide(approval, true, note.value));
  decline.addEventListener('click', () => handlers.decide(approval, false, note.value));
  buttons.append(approve, decline);
  form.append(label, note, buttons);
  li.append(form);
  return li;
}

function element(tag: string, text: string, className?: string): HTMLElement {
  const node = document.createElement(tag);
  node.textContent = text;
  if (className !== undefined) node.className = className;
  return node;
}

function cssId(key: string): string {
  return key.replace(/[^A-Za-z0-9_-]/g, '_');
}
