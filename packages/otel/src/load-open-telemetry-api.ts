/** The parts of `@opentelemetry/api` the span observer uses. */
export type OpenTelemetryApi = Pick<typeof import('@opentelemetry/api'), 'context' | 'trace'>;

// A variable, so bundlers and TypeScript leave the optional peer dependency alone until it is asked for.
const API_MODULE = '@opentelemetry/api';

/**
 * `@opentelemetry/api` when the application has it installed, else `undefined`: it is an optional peer
 * dependency, loaded only when tracing is set up, so an application without it loads nothing more.
 */
export function loadOpenTelemetryApi(): Promise<OpenTelemetryApi | undefined> {
  // Once per process: Node does not cache a failed resolution, and the answer does not change.
  loading ??= importApi();
  return loading;
}

let loading: Promise<OpenTelemetryApi | undefined> | undefined;

async function importApi(): Promise<OpenTelemetryApi | undefined> {
  try {
    const loaded = (await import(API_MODULE)) as OpenTelemetryApi & { default?: OpenTelemetryApi };
    return loaded.trace === undefined && loaded.default !== undefined ? loaded.default : loaded;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') return undefined;
    throw error;
  }
}
