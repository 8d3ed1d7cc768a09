// The playground: a static page that runs refsem's core in the browser (no server beyond the
// static files). `npm run playground` serves it, `npm run playground:build` writes it to
// dist-playground/. The spec chapters are copied next to it so that rule links open them.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const specDir = fileURLToPath(new URL('../spec/', import.meta.url));

/** Emits spec/*.md into the build, where the report's rule links point. */
function specChapters(): Plugin {
  return {
    name: 'refsem-spec-chapters',
    generateBundle() {
      for (const f of readdirSync(specDir).filter((n) => n.endsWith('.md'))) {
        this.emitFile({ type: 'asset', fileName: `spec/${f}`, source: readFileSync(specDir + f, 'utf8') });
      }
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [specChapters()],
  build: { outDir: fileURLToPath(new URL('../dist-playground', import.meta.url)), emptyOutDir: true, target: 'es2022' },
  server: { fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] } },
});
