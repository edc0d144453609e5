// Browser tests drive Debian's chromium (no browser downloads work here).
// Install it from apt when missing and we are root; otherwise say what to do.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(path)) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(`chromium not found at ${path}: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH.`);
    process.exit(1);
  }
  console.log(`chromium not found at ${path}; installing Debian's chromium with apt-get...`);
  execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null', { stdio: 'inherit' });
}
