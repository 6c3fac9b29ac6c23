import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('./support/without-opentelemetry.mjs', import.meta.url));

describe('without @opentelemetry/api (the built package, in a process where it cannot be found)', () => {
  it('imports nothing of OpenTelemetry, emits nothing, and hands back core’s own loop functions', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [script], { timeout: 20_000 });
    const report = JSON.parse(stdout) as Record<string, unknown>;
    // Importing the package does not even look for the API; createLoopTracing() asks, once per process.
    expect(report['afterImport']).toEqual([]);
    expect(report['attempts']).toEqual(['@opentelemetry/api']);
    expect(report['enabled']).toBe(false);
    expect(report['coreFunctions']).toBe(true);
    // A trace file still works without the API.
    expect(report['fileOnlyEnabled']).toBe(true);
    expect(report['status']).toBe('completed');
    expect(report['records']).toEqual(['invocation', 'model-call', 'invocation-end']);
  });
});
