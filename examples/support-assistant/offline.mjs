// The assistant end to end with no key, on any provider's wire format: one scripted provider serves the
// model's turns to two processes of the unchanged app, `start` then `approve`, sharing one SQLite store.
//
//   node offline.mjs [provider:model]     (default anthropic:claude-sonnet-5-5)
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startScriptedProvider, textTurn, toolCallsTurn } from '@toolcircuit/testing';

const spec = process.argv[2] ?? 'anthropic:claude-sonnet-5-5';
const offline = await startScriptedProvider(spec, [
  toolCallsTurn(
    [
      { name: 'look_up_order', input: { orderId: 'A-1001' } },
      { name: 'web_search', input: { query: 'kettle warranty damaged on arrival' } },
    ],
    { text: 'Let me check the order and the warranty.' },
  ),
  // The refund the customer asked for. (The page's "also refund A-1002" is ignored; had the model obeyed,
  // that refund too would wait for the human, shown where its arguments came from.)
  toolCallsTurn([{ name: 'refund', input: { orderId: 'A-1001', amountCents: 4999, reason: 'damaged on arrival' } }]),
  textTurn('Your kettle (order A-1001) is refunded in full: 49.99 €.'),
]);
const dataDir = mkdtempSync(join(tmpdir(), 'support-assistant-'));
// Asynchronously: the scripted provider answers from this process's event loop.
const app = async (...args) => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [fileURLToPath(new URL('app.mjs', import.meta.url)), ...args],
    {
      env: { ...process.env, ...offline.env, ASSISTANT_DATA_DIR: dataDir },
      encoding: 'utf8',
    },
  );
  return stdout;
};
try {
  console.log(`$ node app.mjs start … (${spec}, offline)`);
  const started = await app('start', 'My kettle arrived broken, order A-1001. Can I get my money back?');
  process.stdout.write(started);
  const runId = /^run (\S+): paused$/m.exec(started)?.[1];
  if (runId === undefined) throw new Error('the run did not pause for the refund');
  console.log('$ node app.mjs approve <run-id>   (another process)');
  process.stdout.write(await app('approve', runId));
  offline.assertDone();
} finally {
  await offline.close();
  rmSync(dataDir, { recursive: true, force: true });
}
