// The tracker's damage box on a Daggerheart table (review 6): damage goes
// against the character's thresholds and marks HP slots (000 "Damage"), healing
// clears slots, and a PC without thresholds is asked for them in words; the
// kernel's plain HP box (which nobody reads in Daggerheart) is never used.
import { describe, expect, it } from 'vitest';
import { scenario, seededRng, type Scenario } from '@tablekeeper/engine';
import { daggerheart, resolveSettings } from '@tablekeeper/rulesets';
import { damageCommand } from '../packages/web/src/lib/damage.ts';

function table(): Scenario {
  const settings = resolveSettings('daggerheart');
  if (!settings.ok) throw new Error(settings.error.message);
  return scenario(daggerheart.ruleset.modules, { rng: seededRng(5), rulesetId: 'daggerheart', settings: settings.value });
}
const idOf = (s: Scenario, name: string): string => Object.values(s.world.characters).find((c) => c.name === name)!.id;
const marked = (s: Scenario, id: string): unknown => s.world.characters[id]!.stats['hpMarked'];

describe('the damage box in Daggerheart', () => {
  it('Kira (Major 7, Severe 14): 9 damage is major and marks 2 HP, 5 is minor and marks 1; Heal 2 clears 2', () => {
    const s = table();
    s.run({ type: 'character.add', name: 'Kira', kind: 'pc', stats: { major: 7, severe: 14, hpMax: 6 } });
    s.run({ type: 'character.add', name: 'Bram', kind: 'pc', stats: {} });
    const kira = idOf(s, 'Kira');
    const bram = idOf(s, 'Bram');
    s.run({ type: 'encounter.start', combatants: [{ id: 'cb-kira', kind: 'pc', characterId: kira }, { id: 'cb-bram', kind: 'pc', characterId: bram }] });
    const nine = damageCommand(s.world, 'cb-kira', 'damage', '9');
    expect(nine).toEqual({ ok: true, value: { type: 'daggerheart.takeDamage', characterId: kira, amount: 9 } });
    s.run((nine as { value: { type: string } }).value);
    expect(marked(s, kira)).toBe(2);
    s.run((damageCommand(s.world, 'cb-kira', 'damage', '5') as { value: { type: string } }).value);
    expect(marked(s, kira)).toBe(3);
    s.run((damageCommand(s.world, 'cb-kira', 'heal', '2') as { value: { type: string } }).value);
    expect(marked(s, kira)).toBe(1);
    // Bram's sheet has no thresholds: the rules say what to fill in.
    const refused = s.fail((damageCommand(s.world, 'cb-bram', 'damage', '9') as { value: { type: string } }).value);
    expect(refused.message).toMatch(/Bram's sheet needs whole-number major and severe thresholds/);
  });
});
