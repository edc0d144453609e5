// The dice tray's labelled numbers (`1d20 + 5 [STR]`), off a table and from a
// table's log (a Node test of the web helpers over the real engine).
import { describe, expect, it } from 'vitest';
import { fixedRng, scenario } from '@tablekeeper/engine';
import { constantText, rollOf, tableRolls } from '../packages/web/src/lib/dice.ts';

describe('the dice tray shows labelled constants', () => {
  it('rolled off a table: 1d20 + 5 [STR] + 2 [proficiency] - 1 [cover] keeps each labelled number, in order, and the summary names them', () => {
    const r = rollOf('1d20 + 5 [STR] + 2 [proficiency] - 1 [cover] # to hit');
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.constants).toEqual([
      { value: 5, label: 'STR' },
      { value: 2, label: 'proficiency' },
      { value: 1, label: 'cover' },
    ]);
    // The die plus 5 + 2 - 1: the constants add 6 to the d20's face.
    expect(r.value.total).toBe(r.value.dice[0]!.value + 6);
    expect(r.value.summary).toBe(`${r.value.total} [${r.value.dice[0]!.value}] +5 STR +2 proficiency +1 cover # to hit`);
    expect(constantText({ value: -2, label: 'cover' })).toBe('-2 cover');
    // No label, no field.
    const plain = rollOf('1d20 + 5');
    expect(plain.ok && 'constants' in plain.value).toBe(false);
  });

  it('from a table roll: the log entry carries the constants and the tray reads them back', () => {
    const s = scenario([], { rng: fixedRng([13]) });
    s.run({ type: 'dice.roll', notation: '1d20 + 5 [STR]' });
    const entry = s.world.log.at(-1)!;
    expect((entry.data as { constants?: unknown }).constants).toEqual([{ value: 5, label: 'STR' }]);
    const [roll] = tableRolls(s.world, 5);
    expect(roll!.total).toBe(18);
    expect(roll!.constants).toEqual([{ value: 5, label: 'STR' }]);
    // A malformed entry from an older log shows its dice and no constants, never a crash.
    const bad = { ...s.world, log: [{ ...entry, data: { ...(entry.data as object), constants: 'x' } }] } as unknown as typeof s.world;
    expect(tableRolls(bad, 1)[0]!.constants).toBeUndefined();
    expect(tableRolls(bad, 1)[0]!.dice).toHaveLength(1);
  });
});
