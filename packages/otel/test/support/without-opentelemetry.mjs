// Loads the built @toolcircuit/otel with `@opentelemetry/*` hidden and prints what happened as JSON.
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

const { port1, port2 } = new MessageChannel();
const attempts = [];
port1.on('message', (specifier) => attempts.push(specifier));
register('./block-opentelemetry-hooks.mjs', import.meta.url, { data: { port: port2 }, transferList: [port2] });
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

const otel = await import('../../dist/index.js');
const core = await import('@toolcircuit/core');
await settle();
const afterImport = [...attempts];
const tracing = await otel.createLoopTracing();
const records = [];
const fileOnly = await otel.createLoopTracing({ traceFile: (record) => records.push(record) });
const catalogue = core.createCatalogue([]);
const session = core.createSession({ id: 's', humanId: 'h' });
const model = {
  provider: 'plain',
  modelId: 'plain-1',
  generate: async () => ({
    content: [{ type: 'text', text: 'hi' }],
    stopReason: { unified: 'end_turn', raw: 'end_turn' },
    usage: {},
  }),
};
const result = await fileOnly.runLoop({ model, catalogue, session, messages: [{ role: 'user', content: 'x' }] });
await settle();
port1.close();
console.log(
  JSON.stringify({
    afterImport,
    attempts,
    enabled: tracing.enabled,
    coreFunctions:
      tracing.runLoop === core.runLoop &&
      tracing.resumeLoop === core.resumeLoop &&
      tracing.streamLoop === core.streamLoop &&
      tracing.continueLoop === core.continueLoop,
    fileOnlyEnabled: fileOnly.enabled,
    status: result.status,
    records: records.map((record) => record.type),
  }),
);
