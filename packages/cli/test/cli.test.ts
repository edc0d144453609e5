import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fixedRng, rollDice } from '@tablekeeper/engine';
import { describeRoll, main, run, oddsExtensions, type CliIo } from '../src/index.js';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIo = { out: (s) => void (out += s), err: (s) => void (err += s) };
  const code = await main(argv, io);
  return { code, out, err };
}

describe('tablekeeper roll', () => {
  it('seeded rolls are reproducible and record every die', async () => {
    const a = await cli('roll', '4d6kh3 + 2', '--seed', '42', '--json');
    const b = await cli('roll', '4d6kh3 + 2', '--seed', '42', '--json');
    expect(a.code).toBe(0);
    expect(a.out).toBe(b.out);
    const r = JSON.parse(a.out) as { total: number; dice: { dice: { value: number; kept: boolean }[] }[] };
    const kept = r.dice[0]!.dice.filter((d) => d.kept).reduce((s, d) => s + d.value, 0);
    expect(r.total).toBe(kept + 2);
    expect(r.dice[0]!.dice).toHaveLength(4);
  });

  it('--times K prints K lines (or a JSON list)', async () => {
    const h = await cli('roll', '3d6 >= 10', '--seed', 'x', '--times', '5');
    expect(h.out.trim().split('\n')).toHaveLength(5);
    expect(h.out).toMatch(/>= 10: (success|failure)/);
    const j = await cli('roll', 'd20', '--seed', '1', '--times', '3', '--json');
    const body = JSON.parse(j.out) as { rolls: { total: number }[]; seed: string };
    expect(body.rolls).toHaveLength(3);
    expect(body.seed).toBe('1');
  });

  it('unseeded rolls stay in range', async () => {
    const r = await cli('roll', '2d6', '--json');
    const total = (JSON.parse(r.out) as { total: number }).total;
    expect(total).toBeGreaterThanOrEqual(2);
    expect(total).toBeLessThanOrEqual(12);
  });

  it('bad notation exits 2 with the column and a caret', async () => {
    const r = await cli('roll', '4d6kh3 +* 2');
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    const [line, expr, caret] = r.err.split('\n');
    expect(line).toContain('(column 9)');
    expect(expr).toBe('  4d6kh3 +* 2');
    expect(caret).toBe('          ^');
  });

  it('limits are named: too many dice, too many --times', async () => {
    const a = await cli('roll', '20000d6');
    expect(a.code).toBe(2);
    expect(a.err).toContain('maxDice');
    const b = await cli('roll', 'd6', '--times', '100000');
    expect(b.code).toBe(2);
    expect(b.err).toContain('--times');
    const c = await cli('roll', 'd6', '--times', 'many');
    expect(c.code).toBe(2);
  });
});

describe('human roll output', () => {
  it('shows dropped dice in parentheses, chains in brackets, rerolls with r', () => {
    const r = rollDice('3d6!kh2 + d6r<3 >= 15', fixedRng([5, 3, 6, 5, 1, 2, 6]));
    expect(describeRoll(r)).toBe('22 >= 15: success   3d6!kh2: 5 (3) 11[6+5]!; 1d6r<3: 6[1,2,6]r');
  });
});

describe('tablekeeper odds', () => {
  it('--json gives expression, min, max, mean, stddev, distribution and probability', async () => {
    const r = await cli('odds', '3d6 >= 13', '--json');
    expect(r.code).toBe(0);
    const o = JSON.parse(r.out) as Record<string, unknown> & { distribution: Record<string, number> };
    expect(o).toMatchObject({ expression: '3d6 >= 13', min: 3, max: 18 });
    expect(o['probability']).toBeCloseTo(7 / 27, 15);
    expect(o['mean']).toBeCloseTo(10.5, 12);
    expect(o['stddev']).toBeCloseTo(Math.sqrt(35 / 4), 12);
    expect(o.distribution['10']).toBeCloseTo(27 / 216, 15);
    expect(Object.values(o.distribution).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it('no probability without a comparison', async () => {
    const o = JSON.parse((await cli('odds', '4d6kh3', '--json')).out) as Record<string, unknown>;
    expect(o).not.toHaveProperty('probability');
    expect(o['mean']).toBeCloseTo(15869 / 1296, 12);
  });

  it('human output: mean, sd, range and a histogram (bucketed when wide)', async () => {
    const r = await cli('odds', '2d6 = 7');
    expect(r.out).toContain('probability 0.166667');
    expect(r.out).toContain('mean 7.0000  sd 2.4152  range 2..12');
    expect(r.out.trim().split('\n')).toHaveLength(3 + 11);
    expect(r.out).toMatch(/^ 7 +16\.67% #{40}$/m);
    const wide = await cli('odds', '100d6');
    expect(wide.out).toContain('range 100..600');
    expect(wide.out.trim().split('\n').length).toBeLessThanOrEqual(2 + 40);
    expect((await cli('odds', 'd6!')).out).toContain('explosions expanded until negligible');
  });

  it('bad input and usage errors exit 2', async () => {
    expect((await cli('odds', '3d6 >=')).code).toBe(2);
    expect((await cli('odds')).code).toBe(2);
    expect((await cli('bogus')).code).toBe(2);
    expect((await cli()).code).toBe(2);
    expect((await cli('--help')).code).toBe(0);
  });

  it('other odds modes plug in through oddsExtensions', async () => {
    oddsExtensions.push({
      options: [['--coin', 'odds of a coin']],
      handles: (o) => o['coin'] === true,
      run: (_e, _o, ctx) => ctx.io.out('heads 0.5\n'),
    });
    try {
      let out = '';
      const code = await run(['odds', '--coin'], { out: (s) => void (out += s), err: () => undefined });
      expect(code).toBe(0);
      expect(out).toBe('heads 0.5\n');
    } finally {
      oddsExtensions.pop();
    }
  });
});

describe('the installed command', () => {
  const bin = fileURLToPath(new URL('../bin/tablekeeper.mjs', import.meta.url));
  it('node packages/cli/bin/tablekeeper.mjs odds "3d6 >= 13" --json prints 7/27', () => {
    const out = execFileSync(process.execPath, [bin, 'odds', '3d6 >= 13', '--json'], { encoding: 'utf8' });
    expect((JSON.parse(out) as { probability: number }).probability).toBeCloseTo(0.259259259259259, 14);
  });
  it('exits 2 on bad input', () => {
    const r = spawnSync(process.execPath, [bin, 'odds', '3d6 >= 1 3'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('^');
  });
});
