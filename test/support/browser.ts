// Browser tests: Debian's Chromium driven by playwright-core, and a static file server for what the
// tests open. Without /usr/bin/chromium the tests say which package to install and are skipped;
// CI installs it (scripts/system-deps.sh), so there they always run.
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`browser tests skipped: ${CHROMIUM} is missing (install the Debian package chromium, e.g. with scripts/system-deps.sh)`);

/** Where tests keep screenshots for people to look at (not compared by the tests). */
export const ARTIFACTS = join(__dirname, '..', '..', 'test-artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

export function launchChromium(): Promise<Browser> {
  // Without the networking switches Chromium keeps trying to reach Google's hosts, which this
  // sandbox refuses; the tests need no network at all.
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.md': 'text/plain; charset=utf-8' };

/** Serves the files of `root` on a free local port; resolves to the base URL. */
export function serveStatic(root: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split(/[?#]/)[0]!);
    const file = normalize(join(root, path === '/' ? 'index.html' : path));
    if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    const a = server.address();
    resolve({ url: `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/`, server });
  }));
}
