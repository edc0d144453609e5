// Serves the built web app (packages/web/dist) with an SPA fallback. A small
// reader of our own: files are looked up under the root only (no traversal),
// hashed assets are cached, index.html never is.
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
};

export function staticFiles(rootDir: string) {
  const root = realpathSync(rootDir);
  const index = join(root, 'index.html');
  /** The file for a URL path, or null (missing, a directory, or outside the root). */
  function find(urlPath: string): string | null {
    let decoded: string;
    try {
      decoded = decodeURIComponent(urlPath);
    } catch {
      return null;
    }
    if (decoded.includes('\0')) return null;
    const full = resolve(root, '.' + (decoded.endsWith('/') ? decoded + 'index.html' : decoded));
    if (full !== root && !full.startsWith(root + sep)) return null;
    try {
      return statSync(full).isFile() ? full : null;
    } catch {
      return null;
    }
  }
  return function serve(req: FastifyRequest, reply: FastifyReply, fallback: boolean): FastifyReply | null {
    const path = req.url.split('?')[0] ?? '/';
    const file = find(path) ?? (fallback ? index : null);
    if (!file) return null;
    const isIndex = file === index;
    return reply
      .header('content-type', TYPES[extname(file)] ?? 'application/octet-stream')
      .header('cache-control', isIndex ? 'no-cache' : path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=300')
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .send(readFileSync(file));
  };
}
