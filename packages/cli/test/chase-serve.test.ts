// `odds --chase`, `odds --countdown` and `serve`: the figures are checked against
// an independent first-step recursion written here, not against the engine.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { dualityOutcomeDistribution } from '@tablekeeper/engine';
import { cli } from './run-cli.js';

// 000 "Dynamic Countdown Advancement": [progress ticks, consequence ticks] per outcome.
const TICKS: Record<string, [number, number]> = {
  critical: [3, 0],
  successWithHope: [2, 0],
  successWithFear: [1, 1],
  failureWithHope: [0, 1],
  failureWithFear: [0, 2],
};

/** P(PCs first), P(other first), P(same roll) by recursion on the first roll (every outcome ticks something). */
function chaseByRecursion(p: number, c: number, dist: Record<string, number>): [number, number, number] {
  const memo = new Map<string, [number, number, number]>();
  const go = (a: number, b: number): [number, number, number] => {
    if (a <= 0 && b <= 0) return [0, 0, 1];
    if (a <= 0) return [1, 0, 0];
    if (b <= 0) return [0, 1, 0];
    const key = `${a}:${b}`;
    const hit = memo.get(key);
    if (hit) return hit;
    const out: [number, number, number] = [0, 0, 0];
    for (const [o, pr] of Object.entries(dist)) {
      const [da, db] = TICKS[o]!;
      const r = go(a - da, b - db);
      for (let i = 0; i < 3; i++) out[i]! += pr * r[i]!;
    }
    memo.set(key, out);
    return out;
  };
  return go(p, c);
}

describe('tablekeeper odds --chase / --countdown', () => {
  it('the chase figures equal an independent recursion over the duality outcomes (d6 at 6 vs d6 at 4, +2 vs 15)', async () => {
    const r = await cli('odds', '--chase', '6:4', '--modifier', '2', '--difficulty', '15', '--json');
    expect(r.code).toBe(0);
    const o = JSON.parse(r.out) as { progressFirst: number; consequenceFirst: number; sameRoll: number; pcsFirst?: number };
    const [pcs, other, same] = chaseByRecursion(6, 4, dualityOutcomeDistribution({ modifier: 2, difficulty: 15, advantage: 0 }));
    // The engine's odds names (docs/vocabulary.md): progressFirst is the PCs' side.
    expect(o.progressFirst).toBeCloseTo(pcs, 12);
    expect(o.pcsFirst).toBeUndefined();
    expect(o.consequenceFirst).toBeCloseTo(other, 12);
    expect(o.sameRoll).toBeCloseTo(same, 12);
    expect(o.progressFirst + o.consequenceFirst + o.sameRoll).toBeCloseTo(1, 12);
    const human = await cli('odds', '--chase', '6:4', '--modifier', '2', '--difficulty', '15');
    expect(human.out).toContain(`${(pcs * 100).toFixed(2)}%`);
  });

  it('a standard countdown of 3 triggers on exactly the third roll', async () => {
    const r = await cli('odds', '--countdown', '3', '--difficulty', '12', '--json');
    const o = JSON.parse(r.out) as { pTrigger: number; expectedRolls: number; within: number[] };
    expect(o.pTrigger).toBeCloseTo(1, 12);
    expect(o.expectedRolls).toBeCloseTo(3, 12);
    expect(o.within.slice(0, 3)).toEqual([0, 0, 1]);
  });

  it('bad options exit 2 with a message naming the option', async () => {
    for (const argv of [
      ['odds', '--chase', '6x4', '--difficulty', '15'],
      ['odds', '--chase', '6:4'],
      ['odds', '--countdown', '4', '--advance', 'sideways', '--difficulty', '12'],
      ['odds', '--countdown', '0', '--difficulty', '12'],
      ['odds', '--chase', '6:4', '--difficulty', '15', '--modifier', 'lots'],
    ]) {
      const r = await cli(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toMatch(/--(chase|difficulty|advance|countdown|modifier)|countdown\.value/);
    }
  });
});

describe('tablekeeper serve', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tk-serve-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('starts the table server on the given port and database, prints the links, and answers /healthz', async () => {
    const bin = fileURLToPath(new URL('../bin/tablekeeper.mjs', import.meta.url));
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--host', '127.0.0.1', '--db', join(dir, 't.sqlite')], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 60_000);
        child.stdout.on('data', (b: Buffer) => {
          out += b.toString();
          const m = /serving on (http:\/\/\S+)/.exec(out);
          if (m && out.includes('Spectator link')) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
      });
      expect(out).toMatch(/GM link: +http:\/\/\S+#gm=[A-Za-z0-9_-]{22}/);
      expect(out).toMatch(/Player link: +http:\/\/\S+#seat=[A-Za-z0-9_-]{22}/);
      const res = await fetch(`${url}/healthz`);
      expect(res.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }, 90_000);
});
