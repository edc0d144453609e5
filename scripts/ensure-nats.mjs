// The shared mode's tests start a real nats-server on loopback (issue 22).
// Install Debian's nats-server from apt when missing and we are root; otherwise say what to do.
import { execSync } from 'node:child_process';

const bin = process.env.NATS_SERVER_PATH ?? 'nats-server';
const found = (() => {
  try {
    execSync(`command -v ${bin}`, { stdio: 'ignore', shell: '/bin/sh' });
    return true;
  } catch {
    return false;
  }
})();
if (!found) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(`nats-server not found: install Debian's nats-server (apt-get install nats-server) or set NATS_SERVER_PATH.`);
    process.exit(1);
  }
  console.log("nats-server not found; installing Debian's nats-server with apt-get...");
  execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nats-server >/dev/null', { stdio: 'inherit' });
}
