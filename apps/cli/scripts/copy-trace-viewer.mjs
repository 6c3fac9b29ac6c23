// Copies the trace viewer's built page (apps/trace-viewer, built first: see this package's turbo.json) into
// dist/trace-viewer, so the published CLI serves it without depending on the app (apps are leaves).
import { cpSync, existsSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = fileURLToPath(new URL('../../trace-viewer/dist/page/', import.meta.url));
const target = fileURLToPath(new URL('../dist/trace-viewer/', import.meta.url));
if (!existsSync(`${source}index.html`)) {
  console.error(`copy-trace-viewer: ${source}index.html is missing; build apps/trace-viewer first (pnpm build does)`);
  process.exit(1);
}
rmSync(target, { recursive: true, force: true });
cpSync(source, target, { recursive: true });
