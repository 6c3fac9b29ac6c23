import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The page is a plain static bundle: relative URLs, so it works from any folder or path it is served under.
export default defineConfig({
  root: fileURLToPath(new URL('./src/page', import.meta.url)),
  base: './',
  build: {
    outDir: fileURLToPath(new URL('./dist/page', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
  },
});
