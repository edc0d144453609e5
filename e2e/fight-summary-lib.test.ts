// The shared fight summary (review 11 #11): who fell and who stands, read the
// way the tracker reads a row, on a real teams encounter that has ended.
import { describe, expect, it } from 'vitest';
import { scenario, seededRng, type EncounterState } from '@tablekeeper/engine';
import { engineFor } from '@tablekeeper/rulesets';
import { fateOf, fightSummaryLines } from '../packages/web/src/lib/fightSummary.ts';

describe('fightSummaryLines', () => {
  it('teams: an unconscious bandit fell, a dead one is named dead, Kira and the last bandit stand', () => {
    const s = scenario(engineFor('teams')!.modules, { rng: seededRng(5), rulesetId: 'teams' });
    s.run({ type: 'character.add', name: 'Kira', kind: 'pc' });
    const kira = Object.values(s.world.characters).find((c) => c.name === 'Kira')!.id;
    s.run({
      type: 'encounter.start',
      combatants: [
        { id: 'kira', name: 'Kira', kind: 'pc', side: 'players', characterId: kira },
        { id: 'b1', name: 'Bandit 1', kind: 'npc', side: 'foes' },
        { id: 'b2', name: 'Bandit 2', kind: 'npc', side: 'foes' },
        { id: 'b3', name: 'Bandit 3', kind: 'npc', side: 'foes' },
      ],
      params: { teamOrder: ['players', 'foes'] },
    });
    const sheet = (name: string, more: object = {}) => ({ name, attributes: { strength: 6 }, skills: { combat: 6 }, evasion: 4, maxHealth: 6, ...more });
    s.run({ type: 'character.sheet.set', characterId: kira, sheet: sheet('Kira') });
    s.run({ type: 'character.sheet.set', characterId: 'b1', sheet: sheet('Bandit 1', { health: 0, conscious: false }) });
    s.run({ type: 'character.sheet.set', characterId: 'b2', sheet: sheet('Bandit 2', { health: 0, conscious: false, dead: true }) });
    s.run({ type: 'character.sheet.set', characterId: 'b3', sheet: sheet('Bandit 3') });
    s.run({ type: 'encounter.end' });
    const enc = s.world.ext['encounter'] as unknown as EncounterState;
    expect(enc.active).toBe(false);
    expect(fateOf(s.world, enc.combatants['b1']!)).toBe('down');
    expect(fightSummaryLines(s.world, enc)).toEqual(['Fell: Bandit 1 (down), Bandit 2 (dead).', 'Still standing: the party, Kira; the others, Bandit 3.']);
  });
});
