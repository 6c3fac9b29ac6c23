// A run's OpenTelemetry spans (GenAI semantic conventions) printed by the SDK's console exporter: one
// `invoke_agent` span for the run, a `chat` span per model call, an `execute_tool` span per call with its
// verdict. Swap the exporter for an OTLP one to send them to your collector.
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, ConsoleSpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createModel } from '@toolcircuit/config';
import { createCatalogue, createSession, defineTool } from '@toolcircuit/core';
import { createLoopTracing } from '@toolcircuit/otel';

const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new ConsoleSpanExporter())] });
trace.setGlobalTracerProvider(provider);

const chercherDossier = defineTool({
  name: 'chercher_dossier',
  description: 'Look up a case file by its exact number (e.g. "A-1234"). Not for searching by name or date.',
  inputSchema: {
    type: 'object',
    properties: { numero: { type: 'string', pattern: '^[A-Z]-[0-9]{4}$', description: 'The case number.' } },
    required: ['numero'],
    additionalProperties: false,
  },
  right: 'dossiers:read',
  run: async ({ numero }) => ({ numero, statut: 'ouvert' }),
});

const tracing = await createLoopTracing(); // the global tracer of @opentelemetry/api
const result = await tracing.runLoop({
  model: await createModel(), // TOOLCIRCUIT_MODEL, or toolcircuit.config.json
  catalogue: createCatalogue([chercherDossier]),
  session: createSession({ id: 'sess-1', humanId: 'alice', rights: ['dossiers:read'] }),
  messages: [{ role: 'user', content: 'Où en sont les dossiers A-1234 et b-12 ?' }],
});
await provider.shutdown(); // flushes the last spans
console.log(result.status, result.text);
