import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { dualityOutcomeDistribution, fixedRng, rollDice, rollNamed, threeD6NaturalDistribution } from '@tablekeeper/engine';
import { describeNamedRoll, describeRoll, run, oddsExtensions } from '../src/index.js';
import { cli } from './run-cli.js';

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
    const h = await cli('roll', '3d6 vs 10', '--seed', 'x', '--times', '5');
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
    const r = rollDice('3d6!!kh2 + d6r<3 vs 15', fixedRng([5, 3, 6, 5, 1, 2, 6]));
    expect(describeRoll(r)).toBe('22 >= 15: success   3d6!!kh2: 5 (3) 11[6+5]!; 1d6r<3: 6[1,2,6]r');
  });

  it('marks successes (*) and failures (_), shows labels and the comment', () => {
    // 4d6>=5f1: 5 and 6 succeed, the 1 fails, the 3 counts nothing: 1 + 1 - 1 = 1.
    const r = rollDice('4d6>=5f1 [hits] # attack', fixedRng([5, 1, 3, 6]));
    expect(describeRoll(r)).toBe('1   4d6>=5f=1 [hits]: 5* 1_ 3 6*   # attack');
  });
});

describe('tablekeeper odds', () => {
  it('--json gives expression, min, max, mean, stddev, distribution and probability', async () => {
    const r = await cli('odds', '3d6 vs 13', '--json');
    expect(r.code).toBe(0);
    const o = JSON.parse(r.out) as Record<string, unknown> & { distribution: Record<string, number> };
    expect(o).toMatchObject({ expression: '3d6 vs 13', min: 3, max: 18 });
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
    const r = await cli('odds', '(2d6) = 7');
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

describe('named rolls on the command line', () => {
  it('roll prints the total, the outcome and the dice; seeded rolls repeat', async () => {
    const a = await cli('roll', 'duality+2 vs 15 adv', '--seed', '9');
    expect(a.code).toBe(0);
    expect(a.out).toMatch(/^-?\d+ vs 15: (critical success|(success|failure) with (Hope|Fear)) {3}hope \d+, fear \d+, advantage \+\d, modifier \+2\n$/);
    expect((await cli('roll', 'duality+2 vs 15 adv', '--seed', '9')).out).toBe(a.out);
    const j = await cli('roll', 'way+5 adv2 vs 14', '--seed', '3', '--json');
    const r = JSON.parse(j.out) as { total: number; natural: number; spec: { kind: string }; roll: { dice: { kept: boolean }[] } };
    expect(r.spec.kind).toBe('way');
    expect(r.total).toBe(r.natural + 5);
    expect(r.roll.dice).toHaveLength(5);
    expect(r.roll.dice.filter((d) => d.kept)).toHaveLength(3);
    const many = await cli('roll', 'klepto+1 vs 7', '--seed', 'x', '--times', '4');
    expect(many.out.trim().split('\n')).toHaveLength(4);
  });

  it('human lines for each roll', () => {
    expect(describeNamedRoll(rollNamed('duality+2 vs 15 adv', fixedRng([9, 4, 2])))).toBe('17 vs 15: success with Hope   hope 9, fear 4, advantage +2, modifier +2');
    expect(describeNamedRoll(rollNamed('duality', fixedRng([5, 5])))).toBe('10: critical success   hope 5, fear 5');
    expect(describeNamedRoll(rollNamed('way+5 adv1 vs 20', fixedRng([6, 5, 6, 1])))).toBe('22 vs 20: success, crit   natural 17: 6 5 6 (1), modifier +5');
    expect(describeNamedRoll(rollNamed('klepto dis1 vs 7', fixedRng([10, 2, 8])))).toBe('0 vs 7: failure, critical failure   d10: 0[10, coin wrong] (8)');
    expect(describeNamedRoll(rollNamed('team(d8, d6)+1 adv1 vs 12', fixedRng([2, 3, 7, 6, 20])))).toBe('18 vs 12: success, luck bonus +4   (d8 2 + d6 3) d8 7 + d6 6, bonus +1, luck d20 20');
    expect(describeNamedRoll(rollNamed('osr-1 dis vs 10', fixedRng([12, 1])))).toBe('0 vs 10: failure, natural 1   d20: (12) 1, modifier -1');
    expect(describeNamedRoll(rollNamed('luck+1 vs 18', fixedRng([17])))).toBe('18 vs 18: success   d20: 17, luck modifier +1');
  });

  it('odds --json: the distribution, the chance of success and of each outcome, from the engine', async () => {
    const r = await cli('odds', 'duality+2 adv1 vs 15', '--json');
    expect(r.code).toBe(0);
    const o = JSON.parse(r.out) as { kind: string; probability: number; mean: number; outcomes: Record<string, number>; distribution: Record<string, number> };
    const d = dualityOutcomeDistribution({ modifier: 2, advantage: 1, difficulty: 15 });
    expect(o.kind).toBe('duality');
    expect(o.outcomes).toEqual(d);
    expect(o.probability).toBeCloseTo(d.critical + d.successWithHope + d.successWithFear, 15);
    // 2d12 + 2 + d6: mean 13 + 2 + 3.5.
    expect(o.mean).toBeCloseTo(18.5, 12);
    expect(Object.values(o.distribution).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    const w = JSON.parse((await cli('odds', 'way dis2', '--json')).out) as { outcomes: Record<string, number>; distribution: Record<string, number> };
    expect(w.outcomes['critFail']).toBeCloseTo(276 / 7776, 15);
    expect(w.distribution['3']).toBeCloseTo(threeD6NaturalDistribution(-2).probability(3), 15);
  });

  it('odds human output lists the outcomes before mean, sd, range and the histogram', async () => {
    const r = await cli('odds', 'duality+2 vs 15');
    const lines = r.out.trim().split('\n');
    expect(lines[0]).toBe('duality+2 vs 15');
    expect(lines[1]).toBe('probability 0.583333 (58.33%)');
    expect(lines.slice(2, 7)).toEqual([
      '  critical success: 0.0833333 (8.33%)',
      '  success with Hope: 0.250000 (25.00%)',
      '  success with Fear: 0.250000 (25.00%)',
      '  failure with Hope: 0.208333 (20.83%)',
      '  failure with Fear: 0.208333 (20.83%)',
    ]);
    expect(lines[7]).toBe('mean 15.0000  sd 4.8819  range 4..26');
    expect(lines).toHaveLength(8 + 23);
  });

  it('bad named rolls exit 2 with the column and a caret', async () => {
    const r = await cli('roll', 'duality+2 vs 15 foo');
    expect(r.code).toBe(2);
    const [line, expr, caret] = r.err.split('\n');
    expect(line).toContain('unknown option "foo"');
    expect(line).toContain('(column 17)');
    expect(expr).toBe('  duality+2 vs 15 foo');
    expect(caret).toBe('                  ^');
    expect((await cli('odds', 'team(d8, 6) vs 12')).code).toBe(2);
    expect((await cli('odds', '2 * klepto')).err).toContain('named roll');
  });
});

describe('the installed command', () => {
  const bin = fileURLToPath(new URL('../bin/tablekeeper.mjs', import.meta.url));
  it('node packages/cli/bin/tablekeeper.mjs odds "3d6 vs 13" --json prints 7/27', () => {
    const out = execFileSync(process.execPath, [bin, 'odds', '3d6 vs 13', '--json'], { encoding: 'utf8' });
    expect((JSON.parse(out) as { probability: number }).probability).toBeCloseTo(0.259259259259259, 14);
  });
  it('exits 2 on bad input', () => {
    const r = spawnSync(process.execPath, [bin, 'odds', '3d6 >= 1 3'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('^');
  });
});
