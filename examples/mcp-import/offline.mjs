// The MCP example with no key: the model's turns are scripted, the MCP server and its tools are real.
//
//   node offline.mjs [provider:model]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScriptedProvider, textTurn, toolCallsTurn } from '@toolcircuit/testing';

const spec = process.argv[2] ?? 'anthropic:claude-sonnet-5-5';
const notes = mkdtempSync(join(tmpdir(), 'mcp-import-'));
const offline = await startScriptedProvider(spec, [
  toolCallsTurn([{ name: 'read_text_file', input: { path: join(notes, 'today.txt') } }]),
  toolCallsTurn([{ name: 'write_file', input: { path: join(notes, 'tomorrow.txt'), content: 'call the plumber\n' } }]),
  textTurn('tomorrow.txt now says: call the plumber.'),
]);
Object.assign(process.env, offline.env, { NOTES_DIR: notes });
process.argv.splice(2, process.argv.length, 'Copy today.txt into tomorrow.txt.', '--approve');
try {
  await import('./app.mjs');
  console.log(`tomorrow.txt: ${JSON.stringify(readFileSync(join(notes, 'tomorrow.txt'), 'utf8'))}`);
  offline.assertDone();
} finally {
  await offline.close();
  rmSync(notes, { recursive: true, force: true });
}
