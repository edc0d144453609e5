// The shared mode's tests start a real PostgreSQL on loopback (issue 22).
// Install Debian's postgresql from apt when its server binaries are missing and we are root; otherwise say what to do.
import { existsSync, readdirSync } from 'node:fs';
import { execSync } from 'node:child_process';

const hasServer = () => {
  if (process.env.PG_BIN) return existsSync(`${process.env.PG_BIN}/postgres`);
  if (!existsSync('/usr/lib/postgresql')) return false;
  return readdirSync('/usr/lib/postgresql').some((v) => existsSync(`/usr/lib/postgresql/${v}/bin/postgres`) && existsSync(`/usr/lib/postgresql/${v}/bin/initdb`));
};
if (!hasServer()) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error("PostgreSQL's server binaries not found: install Debian's postgresql (apt-get install postgresql) or set PG_BIN to the directory holding postgres and initdb.");
    process.exit(1);
  }
  console.log("PostgreSQL not found; installing Debian's postgresql with apt-get...");
  execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null', { stdio: 'inherit' });
}
