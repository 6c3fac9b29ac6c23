// The OpenTelemetry example with no key: scripted model turns through the real adapter.
//
//   node offline.mjs [provider:model]
import { startScriptedProvider, textTurn, toolCallsTurn } from '@toolcircuit/testing';

const spec = process.argv[2] ?? 'anthropic:claude-sonnet-5-5';
const offline = await startScriptedProvider(spec, [
  toolCallsTurn([
    { name: 'chercher_dossier', input: { numero: 'A-1234' } },
    { name: 'chercher_dossier', input: { numero: 'b-12' } }, // refused by the schema check: a span says so
  ]),
  textTurn('A-1234 est ouvert ; « b-12 » n’est pas un numéro valide.'),
]);
Object.assign(process.env, offline.env);
try {
  await import('./app.mjs');
  offline.assertDone();
} finally {
  await offline.close();
}
