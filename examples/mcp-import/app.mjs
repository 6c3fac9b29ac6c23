// The tools of a real MCP server (the reference filesystem server, from the npm registry) in a run: its
// read-only tools run at once, its writes wait for the human's confirmation of their exact arguments.
//
//   node app.mjs "<request>" [--approve]    model from TOOLCIRCUIT_MODEL or toolcircuit.config.json
//
// The folder the server may touch is NOTES_DIR (default ./notes). Without --approve the human says no.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { createModel } from '@toolcircuit/config';
import { createSession, InMemoryConfirmations, resumeLoop, runLoop } from '@toolcircuit/core';
import { connectMcpServer } from '@toolcircuit/mcp';

const notes = resolve(process.env.NOTES_DIR ?? 'notes');
mkdirSync(notes, { recursive: true });
if (!existsSync(resolve(notes, 'today.txt'))) writeFileSync(resolve(notes, 'today.txt'), 'call the plumber\n');

// The installed server, started over stdio with this Node. (Elsewhere: { command: 'npx', args: ['-y',
// '@modelcontextprotocol/server-filesystem', notes] }.)
const entry = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
const fs = await connectMcpServer({
  name: 'fs', // sessions need the right `mcp:fs`
  server: { command: process.execPath, args: [entry, notes], stderr: 'ignore' },
});
try {
  for (const tool of fs.tools()) {
    if (['read_text_file', 'write_file', 'move_file'].includes(tool.name)) {
      console.log(`imported ${tool.name}: ${tool.irreversible ? 'irreversible, needs a confirmation' : 'runs freely'}`);
    }
  }
  const session = createSession({
    id: 'sess-alice',
    humanId: 'alice',
    rights: ['mcp:fs'], // from YOUR auth
    confirmations: fs.guardConfirmations(new InMemoryConfirmations()), // void if the server changes a tool
  });
  const options = { model: await createModel(), catalogue: fs.catalogue(), session, confirmation: 'pause' };
  const request = process.argv[2] ?? 'Copy today.txt into tomorrow.txt.';
  let result = await runLoop({ ...options, messages: [{ role: 'user', content: `${request} (folder: ${notes})` }] });
  while (result.status === 'paused' && result.paused !== undefined) {
    const approve = process.argv.includes('--approve');
    for (const call of result.paused.pending) {
      console.log(`${approve ? 'approved' : 'refused'} by alice: ${call.toolName} ${JSON.stringify(call.input)}`);
    }
    const decisions = result.paused.pending.map((call) => ({
      callId: call.callId,
      approved: approve,
      inputDigest: call.inputDigest,
    }));
    result = await resumeLoop(result.paused, decisions, options);
  }
  console.log(result.status, result.text);
} finally {
  await fs.close();
}
