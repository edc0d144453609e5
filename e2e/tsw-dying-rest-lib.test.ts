// A PC still dying when a 36th Way fight ends (review 7: End said only "the
// encounter ends", and the quick rest did nothing for Bram at -3 HP), through
// the real engine and the GM's quick rest form. 002 "Dying and Death": any
// healing brings a dying character back, recovering from 0 HP; "Quick Rest":
// heal using any number of recoveries. ADR 55.
import { describe, expect, it } from 'vitest';
import { scenario, type Json, type Rng } from '@tablekeeper/engine';
import { rulesetDefinition } from '@tablekeeper/rulesets';
import { dyingNote, quickRestCommand, recoveryLine, recoveryRowsOf, startingSpend } from '../packages/web/src/lib/quickRest.ts';

/** Dice that land on the faces given, in order. */
function faces(...f: number[]): Rng {
  const q = [...f];
  return { kind: 'seeded', die: () => q.shift() ?? 1, snapshot: () => null };
}

/** Bram (level 1, 20 HP, recoveries of 1d10) and Kira fight an orc; Bram drops to -3 HP, dying; the GM ends the fight. */
function bramLeftDying(rng: Rng) {
  const s = scenario(rulesetDefinition('36th-way')!.modules, { rng, rulesetId: '36th-way' });
  s.run({ type: '36th-way.sheet.set', sheet: { id: 'bram', name: 'Bram', kind: 'pc', level: 1, maxHp: 20, hp: 20, recoveries: 8, maxRecoveries: 8, recoveryDice: { count: 1, sides: 10 } } as unknown as Json });
  s.run({ type: '36th-way.sheet.set', sheet: { id: 'kira', name: 'Kira', kind: 'pc', level: 1, maxHp: 24, hp: 24 } as unknown as Json });
  s.run({ type: '36th-way.sheet.set', sheet: { id: 'orc', name: 'Orc', kind: 'npc', level: 2, maxHp: 20 } as unknown as Json });
  s.run({ type: 'encounter.start', combatants: [{ id: 'bram', name: 'Bram', kind: 'pc', side: 'party', band: 'slow' }, { id: 'kira', name: 'Kira', kind: 'pc', side: 'party', band: 'slow' }, { id: 'orc', name: 'Orc', kind: 'npc', side: 'foes', band: 'fast' }] });
  s.run({ type: '36th-way.damage', target: 'bram', amount: 23 });
  s.run({ type: 'encounter.end' });
  return s;
}

describe('a dying PC at the end of a fight and at the quick rest (002 "Dying and Death", "Quick Rest")', () => {
  it('End names Bram as dying at -3 HP, for the GM and the players alike', () => {
    const s = bramLeftDying(faces());
    const line = 'Bram is still dying (-3 HP): any healing brings them back, counted from 0 HP; a recovery at the quick rest will do.';
    expect(s.world.log.map((l) => l.text)).toContain(line);
    expect(s.view({ role: 'spectator' }).world.log.map((l) => l.text)).toContain(line);
    expect(s.world.log.some((l) => l.text.startsWith('Kira is still dying'))).toBe(false);
  });

  it('the quick rest form starts Bram on one recovery and says why; rolled 7 on 1d10, he comes back at 7 HP (from 0, not -3 + 7 = 4)', () => {
    const s = bramLeftDying(faces(7));
    const rows = recoveryRowsOf(s.world);
    const bram = rows.find((r) => r.id === 'bram')!;
    expect(recoveryLine(bram)).toBe('Bram: dying at HP -3/20, 8 of 8 recoveries (each heals 1d10)');
    expect([startingSpend(bram), dyingNote(bram)]).toEqual(['1', 'Bram is dying: a recovery brings them back, counted from 0 HP.']);
    const kira = rows.find((r) => r.id === 'kira')!;
    expect([startingSpend(kira), dyingNote(kira)]).toEqual(['', null]);
    // The GM types nothing: Bram's box holds its starting 1, Kira's is blank.
    const cmd = quickRestCommand(rows, {}, false);
    expect(cmd).toEqual({ ok: true, command: { type: '36th-way.quickRest', recoveries: { bram: 1 } } });
    if (!cmd.ok) return;
    s.run(cmd.command as never);
    const after = recoveryRowsOf(s.world).find((r) => r.id === 'bram')!;
    expect(after).toMatchObject({ hp: 7, recoveries: 7, dying: false });
    expect(s.world.log.map((l) => l.text).join('\n')).toMatch(/Bram spends a Recovery \(quick rest\): 1d10 \[7\] = 7 HP \(7 left\): now 7 HP, back from dying/);
  });

  it('the GM may still clear the box: Bram stays dying, and the form offers the recovery again next time', () => {
    const s = bramLeftDying(faces());
    const cmd = quickRestCommand(recoveryRowsOf(s.world), { bram: '' }, false);
    expect(cmd).toEqual({ ok: true, command: { type: '36th-way.quickRest', recoveries: {} } });
    if (!cmd.ok) return;
    s.run(cmd.command as never);
    expect(recoveryRowsOf(s.world).find((r) => r.id === 'bram')).toMatchObject({ hp: -3, dying: true });
  });
});
