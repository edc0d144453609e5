// Bundle sizes of the two screens from a production build: the JavaScript a
// phone downloads to open the player view, and what the GM screen needs, each
// gzipped (level 9). A screen's size is the entry chunk plus the screen's own
// chunk and everything they import statically; panels loaded later on some
// tables only (exploration, episode bar, attack, sheet editor, QR code) are
// not counted.
//
//   node scripts/bundle-size.mjs          a table
//   node scripts/bundle-size.mjs --json   {"playerKbGz": N, "gmKbGz": M}
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const json = process.argv.includes('--json');
const out = mkdtempSync(path.join(tmpdir(), 'tk-bundle-'));
try {
  const r = spawnSync(process.execPath, ['../../node_modules/vite/bin/vite.js', 'build', '--logLevel', 'error', '--manifest', '--outDir', out, '--emptyOutDir'], {
    cwd: 'packages/web',
    stdio: json ? ['ignore', 'ignore', 'inherit'] : 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (r.status !== 0) {
    console.error('the production build failed');
    process.exit(1);
  }
  const manifest = JSON.parse(readFileSync(path.join(out, '.vite', 'manifest.json'), 'utf8'));
  const entry = Object.entries(manifest).find(([, m]) => m.isEntry)?.[0];
  if (entry === undefined) throw new Error('no entry in the build manifest');

  /** The chunk files `key` loads before it runs: itself and its static imports, recursively. */
  const closure = (key, seen = new Set()) => {
    const m = manifest[key];
    if (m === undefined || seen.has(m.file)) return seen;
    seen.add(m.file);
    for (const dep of m.imports ?? []) closure(dep, seen);
    return seen;
  };
  const screen = (src) => {
    if (manifest[src] === undefined) throw new Error(`${src} is not its own chunk in the build`);
    return new Set([...closure(entry), ...closure(src)]);
  };
  const kbGz = (files) => {
    let bytes = 0;
    for (const f of files) if (f.endsWith('.js')) bytes += gzipSync(readFileSync(path.join(out, f)), { level: 9 }).length;
    return Math.round(bytes / 102.4) / 10;
  };
  const player = screen('src/components/PlayerView.tsx');
  const gm = screen('src/components/GmScreen.tsx');
  const result = { playerKbGz: kbGz(player), gmKbGz: kbGz(gm) };
  if (json) console.log(JSON.stringify(result));
  else {
    console.log(`player view: ${result.playerKbGz} KB gzipped JavaScript (${[...player].filter((f) => f.endsWith('.js')).length} files; target < 30)`);
    console.log(`GM screen:   ${result.gmKbGz} KB gzipped JavaScript (${[...gm].filter((f) => f.endsWith('.js')).length} files; target < 80)`);
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
