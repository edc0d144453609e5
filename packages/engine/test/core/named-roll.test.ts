// dice.roll with a system's named roll ("duality+2 vs 15 adv"): the engine
// rolls it with the table's Rng, records every die with its part, and logs
// the outcome in the system's words.
import { describe, expect, it } from 'vitest';
import { scenario, type Viewer } from '../../src/core/index.js';
import { rollNamed, seededRng } from '../../src/dice/index.js';

const ANN: Viewer = { role: 'player', seatId: 'seat-1' };

function table(seed: number) {
  const s = scenario([], { rng: seededRng(seed) });
  s.run({ type: 'seat.add', name: 'Ann' });
  return s;
}

describe('dice.roll with a named roll', () => {
  it('records the same dice rollNamed draws for the same seed, and logs the duality outcome with Hope and Fear', () => {
    const s = table(4);
    const tx = s.run({ type: 'dice.roll', notation: 'duality+2 vs 15 adv' }, ANN);
    const ev = tx.kind === 'command' ? tx.events[0]! : null;
    const expected = rollNamed('duality+2 vs 15 adv', seededRng(4));
    expect(ev).toMatchObject({ type: 'dice.rolled', by: 'seat-1', named: { total: expected.total, outcome: expected.outcome } });
    const entry = s.world.log.at(-1)!;
    expect(entry.kind).toBe('dice.rolled');
    expect(entry.data).toMatchObject({ notation: 'duality+2 vs 15 adv', total: expected.total, comparison: { op: '>=', target: 15 }, outcome: expected.outcome });
    const dice = (entry.data as { dice: { role?: string; sides: number }[] }).dice;
    expect(dice.map((d) => d.role)).toEqual(['hope', 'fear', 'advantage']);
    expect(entry.text).toMatch(/^Ann rolled duality\+2 vs 15 adv: \d+ vs 15, (critical success|success with (Hope|Fear)|failure with (Hope|Fear)) \[hope \d+ fear \d+ advantage \d+\]$/);
    // Replay rebuilds the same log from the recorded dice.
    expect(JSON.stringify(s.engine.replay(s.table.genesis, s.table.transactions).world)).toBe(JSON.stringify(s.world));
  });

  it('every system\'s roll logs its dice: 36th Way kept dice, Kleptonomicon d10s, the team test with its luck die, the OSR d20s, a luck test', () => {
    const s = table(9);
    for (const [notation, sides] of [
      ['way+5 adv2 vs 14', [6, 6, 6, 6, 6]],
      ['klepto+1 dis vs 7', [10, 10]],
      ['team(d8, d6) +1 vs 12', [8, 6, 20]],
      ['osr+3 adv vs 15', [20, 20]],
      ['luck+1 vs 18', [20]],
    ] as const) {
      s.run({ type: 'dice.roll', notation }, ANN);
      const data = s.world.log.at(-1)!.data as { notation: string; dice: { sides: number; kept: boolean }[] };
      expect(data.notation).toBe(notation);
      expect(data.dice.map((d) => d.sides)).toEqual(sides);
    }
  });

  it('a bad named roll is a typed notation error with its column', () => {
    const s = table(1);
    expect(s.fail({ type: 'dice.roll', notation: 'duality+2 vs' }, ANN)).toMatchObject({ code: 'BAD_NOTATION', path: 'notation', column: expect.any(Number) });
  });
});
