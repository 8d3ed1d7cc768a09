// The playground: a static page that runs refsem's core in the browser (no server beyond the
// static files). `npm run playground` serves it, `npm run playground:build` writes it to
// dist-playground/. The spec chapters are bundled into the script (playground/rules.ts), so a
// rule ID opens its text in the page and no link leaves it.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  build: { outDir: fileURLToPath(new URL('../dist-playground', import.meta.url)), emptyOutDir: true, target: 'es2022' },
  server: { fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] } },
});
