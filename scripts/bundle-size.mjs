// Bundle sizes of the two screens from a production build: the JavaScript a
// phone downloads to open the player view, and what the GM screen needs, each
// gzipped (level 9). A screen's size is the entry chunk plus the screen's own
// chunk and everything they import statically; panels loaded later on some
// tables only (exploration, episode bar, attack, sheet editor, QR code) are
// not counted.
//
//   node scripts/bundle-size.mjs          a table
//   node scripts/bundle-size.mjs --json   {"playerKbGz": N, "gmKbGz": M, "playerBytesGz": n, "gmBytesGz": m, "targets": {...}, "playerFiles": [...]}
//   node scripts/bundle-size.mjs --check  exits 1, naming the screen, when one is at or over its target
//
// e2e/bundle-size.test.ts runs it, so `npm test` fails when the phone's first
// download reaches 30 KB gz (issue 20's goal).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const json = process.argv.includes('--json');
const check = process.argv.includes('--check');
/** KB gzipped each screen's first download must stay under. */
const TARGETS = { playerKbGz: 30, gmKbGz: 80 };
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
    // A lazy screen whose chunk also holds modules its own lazy panels share is listed by its chunk name, not its path.
    const name = path.basename(src).replace(/\.tsx?$/, '');
    const key = manifest[src] !== undefined ? src : Object.keys(manifest).find((k) => manifest[k].isDynamicEntry && manifest[k].name === name);
    if (key === undefined) throw new Error(`${src} is not its own chunk in the build`);
    return new Set([...closure(entry), ...closure(key)]);
  };
  const bytesGz = (files) => {
    let bytes = 0;
    for (const f of files) if (f.endsWith('.js')) bytes += gzipSync(readFileSync(path.join(out, f)), { level: 9 }).length;
    return bytes;
  };
  const kb = (bytes) => Math.round(bytes / 102.4) / 10;
  const player = screen('src/components/PlayerView.tsx');
  const gm = screen('src/components/GmScreen.tsx');
  // The exact bytes too: a change near the phone's limit is weighed in bytes, not tenths of a KB.
  const bytes = { playerBytesGz: bytesGz(player), gmBytesGz: bytesGz(gm) };
  const result = { playerKbGz: kb(bytes.playerBytesGz), gmKbGz: kb(bytes.gmBytesGz) };
  // Chunk names without their content hash, so a test can say which files a phone loads.
  const playerFiles = [...player].filter((f) => f.endsWith('.js')).map((f) => path.basename(f).replace(/-[\w-]{8}\.js$/, '')).sort();
  if (json) console.log(JSON.stringify({ ...result, ...bytes, targets: TARGETS, playerFiles }));
  else {
    console.log(`player view: ${result.playerKbGz} KB gzipped JavaScript (${playerFiles.length} files; target < ${TARGETS.playerKbGz})`);
    console.log(`GM screen:   ${result.gmKbGz} KB gzipped JavaScript (${[...gm].filter((f) => f.endsWith('.js')).length} files; target < ${TARGETS.gmKbGz})`);
  }
  const over = Object.keys(TARGETS).filter((k) => result[k] >= TARGETS[k]);
  if (check && over.length > 0) {
    for (const k of over) console.error(`${k === 'playerKbGz' ? 'the player view' : 'the GM screen'} is ${result[k]} KB gzipped, over its ${TARGETS[k]} KB target`);
    process.exitCode = 1;
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
