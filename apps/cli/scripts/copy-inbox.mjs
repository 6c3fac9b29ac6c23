// Copies the approval inbox's built page (apps/inbox, built first: see this package's turbo.json) into
// dist/inbox, so the published CLI serves it (`toolcircuit serve`) without depending on the app (apps are leaves).
// The app's second page, the useChat chat (chat.html), is left out: it bundles React and the AI SDK, whose
// licence notices the CLI's tarball does not carry. Only index.html and the assets it loads are copied.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = fileURLToPath(new URL('../../inbox/dist/page/', import.meta.url));
const target = fileURLToPath(new URL('../dist/inbox/', import.meta.url));
if (!existsSync(`${source}index.html`)) {
  console.error(`copy-inbox: ${source}index.html is missing; build apps/inbox first (pnpm build does)`);
  process.exit(1);
}
rmSync(target, { recursive: true, force: true });
mkdirSync(`${target}assets`, { recursive: true });
const page = readFileSync(`${source}index.html`, 'utf8');
cpSync(`${source}index.html`, `${target}index.html`);
for (const [, asset] of page.matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g))
  cpSync(`${source}${asset}`, `${target}${asset}`);
