// Builds the web app (GM screen + player view) with Vite when it exists.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

if (!existsSync('packages/web/vite.config.ts')) {
  console.log('web app not present yet; nothing to build');
  process.exit(0);
}
const r = spawnSync(process.execPath, ['../../node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { cwd: 'packages/web', stdio: 'inherit' });
process.exit(r.status ?? 1);
