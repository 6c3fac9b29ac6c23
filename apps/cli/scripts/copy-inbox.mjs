// Copies the approval inbox's built page (apps/inbox, built first: see this package's turbo.json) into
// dist/inbox, so the published CLI serves it (`toolcircuit serve`) without depending on the app (apps are leaves).
import { cpSync, existsSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = fileURLToPath(new URL('../../inbox/dist/page/', import.meta.url));
const target = fileURLToPath(new URL('../dist/inbox/', import.meta.url));
if (!existsSync(`${source}index.html`)) {
  console.error(`copy-inbox: ${source}index.html is missing; build apps/inbox first (pnpm build does)`);
  process.exit(1);
}
rmSync(target, { recursive: true, force: true });
cpSync(source, target, { recursive: true });
