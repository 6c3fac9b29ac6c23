// An MCP client of server.mjs, with the official SDK: what an IDE or another agent sees. Its human confirms
// irreversible calls through MCP elicitation (here: always yes, printed).
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const client = new Client({ name: 'example-client', version: '1.0.0' }, { capabilities: { elicitation: {} } });
client.setRequestHandler('elicitation/create', async (request) => {
  console.log(`the server asks the human: ${request.params.message}`);
  return { action: 'accept', content: { confirm: true } };
});
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [new URL('server.mjs', import.meta.url).pathname],
  stderr: 'inherit',
});
await client.connect(transport);
try {
  const { tools } = await client.listTools();
  for (const tool of tools)
    console.log(`tool ${tool.name}${tool.annotations?.destructiveHint ? ' (destructive)' : ''}`);
  for (const [name, args] of [
    ['look_up_order', { orderId: 'A-1001' }],
    ['look_up_order', { orderId: '1001' }], // fails the schema check
    ['cancel_order', { orderId: 'A-1001' }], // confirmed by the human, then runs once
    ['close_account', {}], // the operator's session lacks the right
  ]) {
    const result = await client.callTool({ name, arguments: args });
    const text = result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join(' ');
    console.log(`${name} ${JSON.stringify(args)} → ${result.isError ? 'refused' : 'ok'}: ${text}`);
  }
} finally {
  await client.close();
}
