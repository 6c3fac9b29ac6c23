// Module hooks that make every `@opentelemetry/*` package look uninstalled, and report each attempt.
let port;

export function initialize(data) {
  port = data.port;
}

export async function resolve(specifier, context, next) {
  if (specifier.startsWith('@opentelemetry/')) {
    port.postMessage(specifier);
    const error = new Error(`Cannot find package '${specifier}' (hidden by the test)`);
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return next(specifier, context);
}
