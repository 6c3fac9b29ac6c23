import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const page = (file: string) => fileURLToPath(new URL(`./src/page/${file}`, import.meta.url));

// The pages are a plain static bundle: relative URLs, so they work from any folder or path they are served
// under. Two entries: the approval inbox (index.html) and the useChat page (chat.html, React).
export default defineConfig({
  root: page(''),
  base: './',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: fileURLToPath(new URL('./dist/page', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
    rolldownOptions: {
      input: { index: page('index.html'), chat: page('chat.html') },
      onwarn(warning, warn) {
        // swr (under @ai-sdk/react) marks its modules "use client", which means nothing in a static page.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
});
