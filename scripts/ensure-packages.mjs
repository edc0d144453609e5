// The system packages `npm test` needs, installed in one apt call when any is
// missing: Debian's chromium (browser tests; no browser downloads work here),
// nats-server and postgresql (the shared mode's tests start both on loopback,
// issue 22). As root it runs apt-get itself; as another user, through sudo when
// sudo asks no password; otherwise it names what to install by hand and fails.
//
//   node scripts/ensure-packages.mjs            install whatever is missing
//   node scripts/ensure-packages.mjs --dry-run  say what is missing and what would run
//
// Each can be found elsewhere instead: CHROMIUM_PATH, NATS_SERVER_PATH, PG_BIN.
import { existsSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { delimiter, join } from 'node:path';

/** The directory of initdb and postgres: PG_BIN, else the newest /usr/lib/postgresql/<n>/bin; null when none. */
export function postgresBin() {
  if (process.env.PG_BIN) return existsSync(join(process.env.PG_BIN, 'postgres')) ? process.env.PG_BIN : null;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => /^\d+$/.test(v) && existsSync(join(root, v, 'bin', 'postgres'))).sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0], 'bin') : null;
}

/** Whether `bin` is a path that exists, or a name found on PATH. */
function onPath(bin) {
  if (bin.includes('/')) return existsSync(bin);
  return (process.env.PATH ?? '').split(delimiter).some((d) => d !== '' && existsSync(join(d, bin)));
}

/** What the tests need: the apt package, how to tell it is there, and the variable that points elsewhere instead. */
export const NEEDS = [
  { apt: 'chromium', use: 'browser tests', found: () => existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'), instead: 'CHROMIUM_PATH (a Chromium binary)' },
  { apt: 'nats-server', use: "the shared mode's bus tests", found: () => onPath(process.env.NATS_SERVER_PATH ?? 'nats-server'), instead: 'NATS_SERVER_PATH (a nats-server binary)' },
  { apt: 'postgresql', use: "the shared mode's store tests", found: () => postgresBin() !== null, instead: 'PG_BIN (the directory of initdb and postgres)' },
];

/** The needs among `needs` (by default all of NEEDS) that are not found. */
export function missingPackages(needs = NEEDS) {
  return needs.filter((n) => !n.found());
}

/**
 * How to install `packages` on a machine with these facts: the commands to run
 * (argv lists, one update and one install), or, when no way works, a message
 * saying what to install by hand. Pure, so every branch is testable here.
 */
export function installPlan(packages, { root, sudo, apt }) {
  if (packages.length === 0) return { kind: 'nothing' };
  const names = packages.join(' ');
  if (!apt) return { kind: 'by-hand', message: `missing: ${names}. This machine has no apt-get: install them with its package manager.` };
  if (!root && !sudo) {
    return {
      kind: 'by-hand',
      message: `missing: ${names}. Not root, and sudo is missing or asks for a password, so install by hand:\n  sudo apt-get update && sudo apt-get install -y ${names}`,
    };
  }
  // sudo resets the environment, so apt's non-interactive mode goes through env.
  const as = root ? [] : ['sudo', '-n', 'env', 'DEBIAN_FRONTEND=noninteractive'];
  return { kind: 'run', commands: [[...as, 'apt-get', 'update', '-qq'], [...as, 'apt-get', 'install', '-y', '-qq', ...packages]] };
}

/** The facts installPlan needs, read from this machine. */
export function machineFacts() {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  // `sudo -n true` fails at once, never prompting, when sudo would ask for a password.
  const sudo = !root && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
  return { root, sudo, apt: onPath('apt-get') };
}

/**
 * Installs whatever of `needs` is missing, with one apt-get update and one install
 * (`facts` are this machine's unless given). Throws an Error saying what to install by hand when it cannot, or when a package
 * installed but is still not found.
 */
export function ensurePackages(needs = NEEDS, { log = console.log, facts } = {}) {
  const missing = missingPackages(needs);
  const plan = installPlan(missing.map((n) => n.apt), facts ?? machineFacts());
  if (plan.kind === 'nothing') return [];
  const instead = missing.map((n) => `${n.apt} for ${n.use}: or set ${n.instead}`).join('\n  ');
  if (plan.kind === 'by-hand') throw new Error(`${plan.message}\n  ${instead}`);
  log(`installing ${missing.map((n) => n.apt).join(', ')} with apt-get (${missing.map((n) => n.use).join('; ')})...`);
  for (const argv of plan.commands) {
    const r = spawnSync(argv[0], argv.slice(1), { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (r.status !== 0) throw new Error(`${argv.join(' ')} failed (${r.error?.message ?? `exit ${r.status}`}); install by hand, or set:\n  ${instead}`);
  }
  const still = missingPackages(missing);
  if (still.length > 0) throw new Error(`apt-get installed ${still.map((n) => n.apt).join(', ')}, but ${still.length === 1 ? 'it is' : 'they are'} still not found; set:\n  ${still.map((n) => n.instead).join('\n  ')}`);
  return missing.map((n) => n.apt);
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  if (process.argv.includes('--dry-run')) {
    const missing = missingPackages();
    const plan = installPlan(missing.map((n) => n.apt), machineFacts());
    if (plan.kind === 'nothing') console.log(`all found: ${NEEDS.map((n) => n.apt).join(', ')}`);
    else if (plan.kind === 'run') console.log(`would run:\n  ${plan.commands.map((c) => c.join(' ')).join('\n  ')}`);
    else console.log(plan.message);
  } else {
    try {
      ensurePackages();
    } catch (e) {
      console.error(e instanceof Error ? e.message : String(e));
      process.exit(1);
    }
  }
}
