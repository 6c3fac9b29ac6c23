/**
 * The realistic cell's one tool, as an application declares it: six required properties of the kinds real
 * tool schemas use (a string with `pattern` and `maxLength`, an enum, an array of strings with item-count
 * limits, an integer range, a closed nested object of three properties, a free-text string). Synthetic: the
 * bench's own tool, written for this cell.
 */
export const TICKET_TOOL_NAME = 'update_ticket';
export const TICKET_TOOL_DESCRIPTION = 'Updates a support ticket: priority, labels, estimate, assignee and a comment.';
export const TICKETS_RIGHT = 'tickets:write';

export interface TicketUpdate {
  readonly ticketId: string;
  readonly priority: 'low' | 'normal' | 'high' | 'urgent';
  readonly labels: readonly string[];
  readonly estimateHours: number;
  readonly assignee: { readonly team: string; readonly login: string; readonly notify: boolean };
  readonly comment: string;
}

export function ticketJsonSchema(): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      ticketId: { type: 'string', pattern: '^[A-Z]{3}-[0-9]{4,8}$', maxLength: 12 },
      priority: { type: 'string', enum: ['low', 'normal', 'high', 'urgent'] },
      labels: { type: 'array', items: { type: 'string', maxLength: 32 }, minItems: 1, maxItems: 5 },
      estimateHours: { type: 'integer', minimum: 1, maximum: 80 },
      assignee: {
        type: 'object',
        properties: {
          team: { type: 'string' },
          login: { type: 'string' },
          notify: { type: 'boolean' },
        },
        required: ['team', 'login', 'notify'],
        additionalProperties: false,
      },
      comment: { type: 'string' },
    },
    required: ['ticketId', 'priority', 'labels', 'estimateHours', 'assignee', 'comment'],
  };
}

const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
const LABELS = ['billing', 'customer-facing', 'refund', 'gateway', 'regression', 'mobile'] as const;
const TEAMS = ['payments', 'platform', 'support'] as const;
const LOGINS = ['mhernandez', 'akowalski', 'tnguyen', 'obrien'] as const;

/** Call `seed`'s arguments as the model sends them: JSON text of about 190 characters. */
export function ticketArguments(seed: number): string {
  const update: TicketUpdate = {
    ticketId: `OPS-${String(20_000 + seed).padStart(5, '0')}`,
    priority: PRIORITIES[seed % PRIORITIES.length] ?? 'normal',
    labels: [LABELS[seed % LABELS.length] ?? 'billing', LABELS[(seed + 1) % LABELS.length] ?? 'refund'],
    estimateHours: 1 + (seed % 40),
    assignee: {
      team: TEAMS[seed % TEAMS.length] ?? 'payments',
      login: LOGINS[seed % LOGINS.length] ?? 'obrien',
      notify: seed % 2 === 0,
    },
    comment: `Charged twice for order ${88_000 + seed}.`,
  };
  return JSON.stringify(update);
}

/** The tool's work: nothing but an answer a little later (an async tool returning a short string). */
export async function updateTicket(input: TicketUpdate): Promise<string> {
  return `Ticket ${input.ticketId} updated.`;
}
