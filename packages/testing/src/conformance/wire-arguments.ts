import type { ConformanceCall } from './conformance-scenario.js';

/** A call's `arguments` on protocols that carry them as JSON text: the scenario's raw text, if it gives one. */
export function argumentsText(call: ConformanceCall): string {
  return call.argumentsText ?? JSON.stringify(call.arguments);
}
