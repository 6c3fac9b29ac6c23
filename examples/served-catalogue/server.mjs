// A catalogue served as an MCP server over stdio: any MCP client (an IDE, a desktop assistant, another
// agent) can list and call its tools, and every call goes through the same four checks as a model's.
import { createCatalogue, createSession, defineTool, InMemoryJournal } from '@toolcircuit/core';
import { serveCatalogue } from '@toolcircuit/mcp';

const orderInput = {
  type: 'object',
  properties: { orderId: { type: 'string', pattern: '^A-[0-9]{4}$', description: 'The order id, e.g. A-1001.' } },
  required: ['orderId'],
  additionalProperties: false,
};
const catalogue = createCatalogue([
  defineTool({
    name: 'look_up_order',
    description: 'Look up one order by its id: item and status. Not for changing an order.',
    inputSchema: orderInput,
    right: 'orders:read',
    run: async ({ orderId }) => ({ orderId, item: 'kettle', status: 'shipped' }),
  }),
  defineTool({
    name: 'cancel_order',
    description: 'Cancel an order that has not shipped yet. Only on the customer’s explicit request.',
    inputSchema: orderInput,
    right: 'orders:cancel',
    irreversible: true, // the client's human confirms these exact arguments (MCP elicitation)
    run: async ({ orderId }) => ({ orderId, cancelled: true }),
  }),
  defineTool({
    name: 'close_account',
    description: 'Close a customer account for good. Only for account managers.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    right: 'accounts:close', // the operator below does not hold it: every call is refused
    irreversible: true,
    run: async () => ({ closed: true }),
  }),
]);

// Over stdio, the caller is whoever started this process: map it to the session you started it for.
const operator = createSession({ id: 'stdio', humanId: 'ops-desk', rights: ['orders:read', 'orders:cancel'] });
const journal = new InMemoryJournal();
process.on('exit', () => {
  // Journal lines on stderr (stdout carries the protocol).
  for (const entry of journal.entries)
    process.stderr.write(`journal: ${entry.toolName} ${entry.verdict}${entry.reason ? ` (${entry.reason})` : ''}\n`);
});
await serveCatalogue(catalogue, { sessionFor: () => operator, journal }).serveStdio();
