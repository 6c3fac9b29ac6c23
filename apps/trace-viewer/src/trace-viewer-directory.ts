import { fileURLToPath } from 'node:url';

/** The folder holding the built page (`index.html` and its assets), to serve as static files. */
export function traceViewerDirectory(): string {
  return fileURLToPath(new URL('./page/', import.meta.url));
}
