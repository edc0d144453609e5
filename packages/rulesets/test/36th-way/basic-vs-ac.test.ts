// A basic attack goes against AC (002 "Basic Melee Attack" / "Basic Ranged Attack"); review 11 found the
// form offering PD and MD, and a PD pick let a total of 14 hit an AC 15 foe. The command and its odds refuse
// another defence in words; the Attack action offers no defence to pick and its odds are against AC.
import { describe, expect, it } from 'vitest';
import type { Json, Viewer } from '@tablekeeper/engine';
import type { ActionsAnswer } from '../../src/actions.js';
import { fight } from './setup.js';

const GM: Viewer = { role: 'gm' };

/** Chance that a plain 3d6 shows a natural in `ok`, by counting the 216 faces. */
function count3d6(ok: (natural: number) => boolean): number {
  let n = 0;
  for (let a = 1; a <= 6; a++) for (let b = 1; b <= 6; b++) for (let c = 1; c <= 6; c++) if (ok(a + b + c)) n++;
  return n / 216;
}

describe('a basic attack is against AC', () => {
  it('refuses PD or MD for a basic melee or ranged attack with a sentence naming the defence', () => {
    const t = fight();
    for (const defense of ['pd', 'md'] as const) {
      const e = t.s.fail({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee', defense });
      expect(e).toMatchObject({ code: 'INVALID_VALUE', path: 'defense' });
      expect(e.message).toBe(`a basic melee attack goes against AC, not ${defense.toUpperCase()}: only an ability that names another defence attacks it`);
    }
    // Ranged stance: the same refusal for the ranged basic attack.
    const r = fight({}, { ann: { stance: 'ranged' } });
    expect(r.s.fail({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'ranged', defense: 'pd' }).message).toContain('a basic ranged attack goes against AC, not PD');
  });

  it('takes AC, said or left out: the roll reads the Orc\'s AC 14', () => {
    const t = fight();
    // Ann +4 (level 1, volition 3): natural 10 = total 14 hits AC 14 (PD 13 would not change that; AC is what counts).
    t.dice.push(4, 3, 3, 4);
    const tx = t.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee', defense: 'ac' });
    const rolled = (tx as unknown as { events: { type: string; [k: string]: Json }[] }).events.find((e) => e.type === '36th-way.attackRolled')!;
    expect(rolled).toMatchObject({ defense: 'ac', defenseValue: 14, total: 14, hit: true });
  });

  it('the odds query refuses another defence for a basic attack, and the action offers no defence and asks odds vs AC', () => {
    const t = fight();
    const q = t.s.engine.query(t.s.table, GM, '36th-way.attackOdds', { attackerId: 'ann', targetIds: ['orc'], basic: 'melee', defense: 'md' });
    expect(q).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'defense', message: 'a basic melee attack goes against AC, not MD' } });
    const a = t.s.engine.query(t.s.table, GM, '36th-way.actions', { combatantId: 'ann' });
    if (!a.ok) throw new Error(a.error.message);
    const attack = (a.value as unknown as ActionsAnswer).actions.find((x) => x.id === 'attack')!;
    expect((attack.choices ?? []).map((c) => c.field)).toEqual(['basic']);
    expect(attack.odds?.pass).not.toContain('defense');
    // What the form sends for its odds: the basic attack, no defence: +4 vs AC 14, natural 10+.
    const o = t.s.engine.query(t.s.table, GM, '36th-way.attackOdds', { ...attack.odds!.args, targetIds: ['orc'], basic: 'melee' });
    expect(o).toMatchObject({ ok: true, value: { defense: 'ac', defenseValue: 14, needed: 10 } });
    expect((o as unknown as { value: { hit: number } }).value.hit).toBeCloseTo(count3d6((n) => n >= 10), 12);
  });
});
