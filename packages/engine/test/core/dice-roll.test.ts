// dice.roll: table rolls decided by the engine's Rng and recorded in the event.
import { describe, expect, it } from 'vitest';
import { MAX_ROLL_NOTATION, scenario, TABLE_ROLL_LIMITS, type EngineEvent, type Transaction, type Viewer } from '../../src/core/index.js';
import { fixedRng, rollDice, seededRng } from '../../src/dice/index.js';

const GM: Viewer = { role: 'gm' };
const ann: Viewer = { role: 'player', seatId: 'seat-1' };
const bob: Viewer = { role: 'player', seatId: 'seat-2' };
const spectator: Viewer = { role: 'spectator' };
const CANARY = 'CANARY-roll-9q';

function seated(opts: { seed?: number; rng?: ReturnType<typeof fixedRng> } = {}) {
  const s = scenario([], opts);
  s.run({ type: 'seat.add', name: 'Ann' });
  s.run({ type: 'seat.add', name: 'Bob' });
  return s;
}

const eventOf = (tx: Transaction): EngineEvent => {
  if (tx.kind !== 'command') throw new Error('not a command');
  expect(tx.events).toHaveLength(1);
  return tx.events[0]!;
};

describe('dice.roll records the roll', () => {
  it('rolls with the table Rng and puts every die in the event', () => {
    const s = seated({ seed: 42 });
    const e = eventOf(s.run({ type: 'dice.roll', notation: '4d6kh3 + 2' }, ann));
    // The same seed through the dice layer directly gives the same record: the engine adds nothing random.
    const expected = rollDice('4d6kh3 + 2', seededRng(42), TABLE_ROLL_LIMITS);
    expect(e).toEqual({ type: 'dice.rolled', by: 'seat-1', audience: { kind: 'all' }, roll: JSON.parse(JSON.stringify(expected)) });
    const group = expected.dice[0]!;
    expect(group.dice).toHaveLength(4);
    expect(group.dice.filter((d) => !d.kept)).toHaveLength(1);
    expect(expected.total).toBe(group.dice.filter((d) => d.kept).reduce((a, d) => a + d.value, 0) + 2);
    const entry = s.world.log.at(-1)!;
    expect(entry).toMatchObject({ kind: 'dice.rolled', audience: { kind: 'all' }, data: { by: 'seat-1', who: 'Ann', notation: '4d6kh3 + 2', total: expected.total } });
    expect(entry.text.startsWith(`Ann rolled 4d6kh3 + 2: ${expected.total} [`)).toBe(true);
  });

  it('records explosions, the comparison and the label', () => {
    // 1d6!! explodes on the 6 and compounds the 3 into the die: 9 vs 8 (meet or beat) holds.
    const s = seated({ rng: fixedRng([6, 3]) });
    const e = eventOf(s.run({ type: 'dice.roll', notation: '1d6!! vs 8', label: 'Leap the chasm' }));
    const roll = e['roll'] as { total: number; comparison: unknown; dice: { dice: unknown[] }[] };
    expect(roll.total).toBe(9);
    expect(roll.comparison).toEqual({ op: '>=', target: 8, success: true });
    expect(roll.dice[0]!.dice).toEqual([{ value: 9, kept: true, exploded: true, rerolled: false, rolls: [6, 3] }]);
    expect(e['by']).toBe('gm');
    expect(e['label']).toBe('Leap the chasm');
    expect(s.world.log.at(-1)!.text).toBe('The GM rolled 1d6!! vs 8 (Leap the chasm): 9 >= 8, success [9!]');
  });

  it('replay gives the same state byte for byte (no reroll), also through undo and redo', () => {
    const s = seated({ seed: 7 });
    s.run({ type: 'dice.roll', notation: '3d6' }, ann);
    s.run({ type: 'dice.roll', notation: '1d20 + 4', audience: 'gm' });
    s.run({ type: 'dice.roll', notation: '2d10kl1', audience: 'gm' }, bob);
    s.undo();
    s.redo();
    const again = s.engine.replay(s.table.genesis, JSON.parse(JSON.stringify(s.table.transactions)));
    expect(JSON.stringify(again)).toBe(JSON.stringify(s.table));
  });

  it('undo removes the roll and its log entry; only the GM may take a roll back', () => {
    const s = seated({ seed: 3 });
    const before = s.world;
    s.run({ type: 'dice.roll', notation: '1d20' }, ann);
    expect(s.view(ann)).toMatchObject({ canUndo: false, undoLabel: null });
    expect(s.fail({ type: 'history.undo' }, ann).code).toBe('FORBIDDEN');
    expect(s.view(GM)).toMatchObject({ canUndo: true, undoLabel: 'roll dice' });
    s.undo(GM);
    expect(s.world).toEqual(before);
    expect(s.world.log.some((e) => e.kind === 'dice.rolled')).toBe(false);
    // Redo re-applies the recorded dice, it does not roll again.
    const rolled = (s.table.transactions.at(-2) as Extract<Transaction, { kind: 'command' }>).events[0]!;
    expect(s.fail({ type: 'history.redo' }, ann).code).toBe('FORBIDDEN');
    s.redo(GM);
    expect(s.world.log.at(-1)!.data).toMatchObject({ total: (rolled['roll'] as { total: number }).total });
  });
});

describe('dice.roll audiences', () => {
  it("a GM secret roll never appears in a player's or spectator's view, log or history", () => {
    const s = seated({ seed: 11 });
    s.run({ type: 'dice.roll', notation: '1d20', label: CANARY, audience: 'gm' });
    const tx = s.table.transactions.at(-1)!;
    expect(tx.kind === 'command' && tx.audiences).toEqual([{ kind: 'gm' }]);
    for (const v of [ann, bob, spectator]) {
      const view = s.view(v);
      expect(JSON.stringify(view)).not.toContain(CANARY);
      expect(view.world.log.some((e) => e.kind === 'dice.rolled')).toBe(false);
      expect(view.history.some((h) => h.seq === tx.seq)).toBe(false);
      expect(JSON.stringify(view.history)).not.toContain('dice.rolled');
    }
    const gm = s.view(GM);
    expect(gm.world.log.at(-1)).toMatchObject({ kind: 'dice.rolled', audience: { kind: 'gm' } });
    expect(JSON.stringify(gm)).toContain(CANARY);
  });

  it("a player's roll for the GM is read by the GM and that player only", () => {
    const s = seated({ seed: 12 });
    s.run({ type: 'dice.roll', notation: '1d6', label: CANARY, audience: 'gm' }, ann);
    expect(s.world.log.at(-1)).toMatchObject({ audience: { kind: 'seat', seatId: 'seat-1' } });
    expect(s.world.log.at(-1)!.text).toContain('Ann rolled 1d6 (CANARY-roll-9q) for the GM: ');
    for (const v of [GM, ann]) expect(JSON.stringify(s.view(v))).toContain(CANARY);
    for (const v of [bob, spectator]) expect(JSON.stringify(s.view(v))).not.toContain(CANARY);
  });

  it('a table roll is public', () => {
    const s = seated({ seed: 13 });
    s.run({ type: 'dice.roll', notation: '2d6', label: 'Parley' }, bob);
    for (const v of [GM, ann, bob, spectator]) expect(s.view(v).world.log.at(-1)).toMatchObject({ kind: 'dice.rolled', data: { who: 'Bob', label: 'Parley' } });
  });
});

describe('dice.roll errors', () => {
  it('bad notation is a typed rule error pointing at its column', () => {
    const s = seated();
    expect(s.fail({ type: 'dice.roll', notation: '2d6 + * 3' })).toMatchObject({ code: 'BAD_NOTATION', path: 'notation', column: 6 });
    // Leading spaces count, so the column lines up with what was sent.
    const e = s.fail({ type: 'dice.roll', notation: '  2d6 + * 3' }, ann);
    expect(e).toMatchObject({ code: 'BAD_NOTATION', column: 8 });
    expect(e.message).toContain('(column 9)');
    expect(s.fail({ type: 'dice.roll', notation: '1d6/0' }).code).toBe('BAD_NOTATION');
    expect(s.table.transactions).toHaveLength(2); // nothing recorded
  });

  it('respects the dice limits and a notation-length cap', () => {
    const s = seated();
    expect(s.fail({ type: 'dice.roll', notation: '101d6' })).toMatchObject({ code: 'LIMIT_EXCEEDED', path: 'notation' });
    expect(s.fail({ type: 'dice.roll', notation: '1d6+'.repeat(50) + '1' })).toMatchObject({ code: 'LIMIT_EXCEEDED', path: 'notation', column: MAX_ROLL_NOTATION });
    expect(s.fail({ type: 'dice.roll', notation: 42 }).code).toBe('INVALID_VALUE');
    expect(s.fail({ type: 'dice.roll', notation: '   ' }).code).toBe('INVALID_VALUE');
    expect(s.fail({ type: 'dice.roll', notation: '1d6', audience: 'everyone' })).toMatchObject({ code: 'INVALID_VALUE', path: 'audience' });
    expect(s.fail({ type: 'dice.roll', notation: '1d6', label: 'x'.repeat(101) })).toMatchObject({ code: 'INVALID_VALUE', path: 'label' });
    // The most explosive roll the limits allow is bounded: 100 dice, each at most 21 faces thrown.
    const big = scenario([], { rng: { kind: 'seeded', snapshot: () => null, die: (sides: number) => sides } });
    // `!` records every extra roll as a die of its own (100 x 21); `!!` compounds each chain into one die.
    const e = eventOf(big.run({ type: 'dice.roll', notation: '100d6!' }));
    expect((e['roll'] as { dice: { dice: unknown[] }[] }).dice[0]!.dice).toHaveLength(100 * 21);
    const c = eventOf(big.run({ type: 'dice.roll', notation: '100d6!!' }));
    const dice = (c['roll'] as { dice: { dice: { rolls?: number[] }[] }[] }).dice[0]!.dice;
    expect(dice).toHaveLength(100);
    expect(dice.every((d) => d.rolls!.length === 21)).toBe(true);
  });

  it('spectators and unseated players may not roll; seats and the GM may', () => {
    const s = seated();
    expect(s.fail({ type: 'dice.roll', notation: '1d6' }, spectator).code).toBe('FORBIDDEN');
    expect(s.fail({ type: 'dice.roll', notation: '1d6' }, { role: 'player', seatId: 'seat-99' }).code).toBe('FORBIDDEN');
    s.run({ type: 'dice.roll', notation: '1d6' }, ann);
    s.run({ type: 'dice.roll', notation: '1d6' }, GM);
  });
});
