// Helpers for browser tests of the web app: build it once if dist is missing,
// serve dist over loopback (for the no-server dice-tray test), and record every
// WebSocket frame a page receives (for the secrecy checks).
import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { Page } from 'playwright-core';

export const webDist = path.resolve('packages/web/dist');

/** Newest modification time under `dir` (0 if it does not exist). */
function newest(dir: string): number {
  if (!existsSync(dir)) return 0;
  const st = statSync(dir);
  if (!st.isDirectory()) return st.mtimeMs;
  let m = 0;
  for (const e of readdirSync(dir)) if (e !== 'node_modules' && e !== 'dist') m = Math.max(m, newest(path.join(dir, e)));
  return m;
}

/** The sources the bundle is made of: a change to any of them makes dist stale. */
const BUNDLE_SOURCES = ['packages/web/src', 'packages/web/index.html', 'packages/web/vite.config.ts', 'packages/engine/src', 'packages/rulesets/src'].map((p) => path.resolve(p));

/** Builds the web app with the project's own script when dist is missing or older than its sources. */
export function ensureWebBuilt(): void {
  const index = path.join(webDist, 'index.html');
  const fresh = existsSync(index) && statSync(index).mtimeMs >= Math.max(...BUNDLE_SOURCES.map(newest));
  if (fresh && process.env.E2E_REBUILD !== '1') return;
  // A production build, as `npm start` serves it (vitest sets NODE_ENV=test, which would leave it unminified).
  const r = spawnSync(process.execPath, ['scripts/build-web.mjs'], { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  if (r.status !== 0) throw new Error('building the web app failed (node scripts/build-web.mjs)');
}

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png', '.json': 'application/json' };

/** A static server of dist on an ephemeral loopback port (index.html for unknown paths). */
export async function serveDist(): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const urlPath = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    let file = path.join(webDist, path.normalize(urlPath).replace(/^(\.\.[/\\])+/, ''));
    if (!file.startsWith(webDist) || !existsSync(file) || statSync(file).isDirectory()) file = path.join(webDist, 'index.html');
    if (urlPath.startsWith('/api/')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { kind: 'NOT_FOUND', message: 'no table server here' } }));
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  if (addr === null || typeof addr === 'string') throw new Error('no port');
  return { url: `http://127.0.0.1:${addr.port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Collects the text of every WebSocket frame the page receives. */
export function recordFrames(page: Page): string[] {
  const frames: string[] = [];
  page.on('websocket', (ws) => {
    ws.on('framereceived', (f) => frames.push(typeof f.payload === 'string' ? f.payload : f.payload.toString('utf8')));
  });
  return frames;
}

/** Fails the test on any uncaught page error or console error (a broken screen must not pass). */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  return errors;
}

/** Page width that scrolls horizontally, if any (phone-friendliness check). */
export async function horizontalOverflow(page: Page): Promise<number> {
  // A string, so this Node-side file needs no DOM types.
  return page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
}
