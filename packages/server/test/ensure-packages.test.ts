// scripts/ensure-packages.mjs: the one apt call `npm test` and .ci/run make for
// Chromium, nats-server and PostgreSQL. Its plan is pure, so every machine
// (root, passwordless sudo, neither, no apt) is checked here; the script itself
// runs for real on this machine's no-op path and, as a dry run, with a package
// pointed away.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { ensurePackages, installPlan, missingPackages, NEEDS, type Need } from '../../../scripts/ensure-packages.mjs';

const run = (args: string[], env: NodeJS.ProcessEnv = {}) => spawnSync(process.execPath, ['scripts/ensure-packages.mjs', ...args], { encoding: 'utf8', env: { ...process.env, ...env } });

describe('one install step for the tests\' system packages', () => {
  it('as root: one apt-get update and one install naming every missing package', () => {
    expect(installPlan(['chromium', 'nats-server', 'postgresql'], { root: true, sudo: false, apt: true })).toEqual({
      kind: 'run',
      commands: [
        ['apt-get', 'update', '-qq'],
        ['apt-get', 'install', '-y', '-qq', 'chromium', 'nats-server', 'postgresql'],
      ],
    });
  });

  it('as another user with passwordless sudo: the same two commands through sudo -n, non-interactive through env', () => {
    const plan = installPlan(['nats-server'], { root: false, sudo: true, apt: true });
    expect(plan).toEqual({
      kind: 'run',
      commands: [
        ['sudo', '-n', 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'update', '-qq'],
        ['sudo', '-n', 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', '-qq', 'nats-server'],
      ],
    });
  });

  it('neither root nor sudo, or no apt: nothing runs, and the message names the packages and the command to type', () => {
    const noSudo = installPlan(['chromium', 'postgresql'], { root: false, sudo: false, apt: true });
    expect(noSudo.kind).toBe('by-hand');
    if (noSudo.kind === 'by-hand') expect(noSudo.message).toContain('sudo apt-get update && sudo apt-get install -y chromium postgresql');
    const noApt = installPlan(['postgresql'], { root: true, sudo: false, apt: false });
    expect(noApt.kind).toBe('by-hand');
    if (noApt.kind === 'by-hand') expect(noApt.message).toMatch(/missing: postgresql\. This machine has no apt-get/);
  });

  it('nothing missing: no plan, and ensurePackages runs nothing', () => {
    expect(installPlan([], { root: false, sudo: false, apt: false })).toEqual({ kind: 'nothing' });
    const present: Need = { apt: 'present', use: 'this test', found: () => true, instead: 'NOTHING' };
    const lines: string[] = [];
    expect(ensurePackages([present], { log: (l) => lines.push(l) })).toEqual([]);
    expect(lines).toEqual([]);
  });

  it('a missing package with no way to install it is refused, naming the package, the command to type and the variable to set instead', () => {
    const absent: Need = { apt: 'tk-no-such-package', use: 'this test', found: () => false, instead: 'TK_NOWHERE (somewhere else)' };
    expect(missingPackages([absent])).toEqual([absent]);
    const lines: string[] = [];
    expect(() => ensurePackages([absent], { log: (l) => lines.push(l), facts: { root: false, sudo: false, apt: true } })).toThrow(
      /missing: tk-no-such-package[\s\S]*sudo apt-get install -y tk-no-such-package[\s\S]*or set TK_NOWHERE \(somewhere else\)/,
    );
    expect(() => ensurePackages([absent], { log: (l) => lines.push(l), facts: { root: true, sudo: false, apt: false } })).toThrow(/no apt-get[\s\S]*TK_NOWHERE/);
    // Refused before anything ran.
    expect(lines).toEqual([]);
  });

  it('knows the three packages and where each may be found instead', () => {
    expect(NEEDS.map((n) => [n.apt, n.instead.split(' ')[0]])).toEqual([
      ['chromium', 'CHROMIUM_PATH'],
      ['nats-server', 'NATS_SERVER_PATH'],
      ['postgresql', 'PG_BIN'],
    ]);
  });

  it('on this machine, where npm test has installed them: a no-op that says nothing and exits 0', () => {
    expect(missingPackages().map((n) => n.apt)).toEqual([]);
    const r = run([]);
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 0, stdout: '', stderr: '' });
    expect(run(['--dry-run']).stdout).toBe('all found: chromium, nats-server, postgresql\n');
  });

  it('a dry run with Chromium pointed away names the one install it would make (or the line to type), and installs nothing', () => {
    const r = run(['--dry-run'], { CHROMIUM_PATH: '/nonexistent/chromium' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/apt-get install -y (-qq )?chromium\n/);
    expect(r.stdout).not.toMatch(/nats-server|postgresql/);
  });
});
