// Helpers for browser tests of the web app: build it once if dist is missing,
// serve dist over loopback (for the no-server dice-tray test), and record every
// WebSocket frame a page receives (for the secrecy checks).
import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';

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

/** One line of a page's socket traffic, short: what a failing test prints (report-on-failure.ts). */
export type WireLine = string;

/** How many lines of socket traffic a page keeps for a failure report. */
const WIRE_KEPT = 40;

/** A frame in a few words: its type, command or query, versions and any refusal (never a whole view). */
export function wireSummary(text: string): string {
  let m: { readonly [k: string]: unknown };
  try {
    m = JSON.parse(text) as { readonly [k: string]: unknown };
  } catch {
    return text.slice(0, 120);
  }
  const pick = (o: unknown, keys: readonly string[]) => (typeof o === 'object' && o !== null ? keys.filter((k) => k in o).map((k) => `${k}=${JSON.stringify((o as Record<string, unknown>)[k])}`) : []);
  const command = typeof m.command === 'object' && m.command !== null ? `${String((m.command as Record<string, unknown>).type)}` : undefined;
  const acks = Array.isArray(m.acks) ? `acks=${JSON.stringify(m.acks)}` : undefined;
  const parts = [String(m.type), command, ...pick(m, ['commandId', 'queryId', 'name', 'expectedVersion', 'from', 'version', 'ok']), acks, ...(m.error !== undefined ? [`error=${JSON.stringify(m.error).slice(0, 300)}`] : [])];
  return parts.filter((x) => x !== undefined).join(' ');
}

/** Keeps the last frames a page sent and received, summarised, with the time since it was watched. */
export function watchWire(page: Page): WireLine[] {
  const lines: WireLine[] = [];
  const t0 = Date.now();
  const keep = (dir: string, payload: string | Buffer) => {
    lines.push(`${String(Date.now() - t0).padStart(6)} ms ${dir} ${wireSummary(typeof payload === 'string' ? payload : payload.toString('utf8'))}`);
    if (lines.length > WIRE_KEPT) lines.shift();
  };
  page.on('websocket', (ws) => {
    ws.on('framesent', (f) => keep('>', f.payload));
    ws.on('framereceived', (f) => keep('<', f.payload));
  });
  return lines;
}

/** Pages still open, with what they saw: a failing test prints them (e2e/report-on-failure.ts), so a CI flake explains itself. */
const watched = new Set<{ readonly p: Page; readonly wire: WireLine[]; readonly errors: string[] }>();

/** Fails the test on any uncaught page error or console error (a broken screen must not pass). Also keeps the page for a failure report. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  const entry = { p: page, wire: watchWire(page), errors };
  watched.add(entry);
  page.on('close', () => watched.delete(entry));
  return errors;
}

/** What each open page shows and last sent and received: its role, socket state, rejection toast, errors and frames. */
export async function reportOpenPages(): Promise<string> {
  const out: string[] = [];
  for (const w of watched) {
    if (w.p.isClosed()) continue;
    // Read at once, never waited for: the page may be stuck.
    const toast = await w.p.locator('[data-testid=rejection]').allTextContents().catch((e: unknown) => [`(unreadable: ${String(e)})`]);
    const status = await w.p.locator('[data-testid=conn-status]').first().getAttribute('data-status', { timeout: 500 }).catch(() => '(none)');
    const role = /#(\w+)=/.exec(w.p.url())?.[1] ?? 'plain';
    out.push(`--- the ${role} page ${new URL(w.p.url()).pathname}: socket ${status}; rejection toast: ${toast.length > 0 ? toast.join(' | ') : '(none)'}`);
    for (const e of w.errors) out.push(`  error: ${e}`);
    out.push('  last socket frames (> sent, < received, ms since the page opened):', ...w.wire.map((l) => `  ${l}`));
  }
  return out.join('\n');
}

/**
 * Who acts now, as the tracker says it, without its " · on deck: ..." part. A wait for the next
 * name must not pass on the on-deck line while the turn change is still on its way (a CI flake).
 */
export async function nowActing(scope: Page | Locator): Promise<string> {
  const line = (await scope.getByTestId('now-acting').first().textContent()) ?? '';
  return line.split(' · on deck:')[0]!.trim();
}

/** Page width that scrolls horizontally, if any (phone-friendliness check). */
export async function horizontalOverflow(page: Page): Promise<number> {
  // A string, so this Node-side file needs no DOM types.
  return page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
}
