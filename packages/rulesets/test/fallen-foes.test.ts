// Review 9 ("Across rulesets"): phones never marked a fallen foe in the turn
// order. The kernel's projection now shows a fallen foe as hp 0 (what the turn
// order greys out by), judged on the GM's world by the ruleset's own fall, in
// every ruleset; a hidden foe stays out and a veiled one shows nothing.
import { describe, expect, it } from 'vitest';
import { getEncounter, seededRng, scenario, type Scenario, type Viewer } from '@tablekeeper/engine';
import { engineFor } from '../src/registry.js';

function tableOf(rulesetId: string): { s: Scenario; player: Viewer } {
  const s = scenario(engineFor(rulesetId)!.modules, { rng: seededRng(5), rulesetId });
  const tx = s.run({ type: 'seat.add', name: 'Ann' });
  const seatId = String(tx.kind === 'command' ? tx.events[0]!['id'] : '');
  return { s, player: { role: 'player', seatId } };
}
const seenStats = (s: Scenario, v: Viewer, id: string) => getEncounter(s.view(v).world).combatants[id]?.stats;
const charId = (s: Scenario, name: string) => Object.values(s.world.characters).find((c) => c.name === name)!.id;

describe('a fallen foe shows as fallen on phones, in every ruleset', () => {
  it('Kleptonomicon: a builder foe at 0 HP of its own, and a foe character at 0 HP on its sheet', () => {
    const { s, player } = tableOf('kleptonomicon');
    s.run({ type: 'kleptonomicon.startEpisode' });
    s.run({ type: 'kleptonomicon.freeplay' });
    s.run({ type: 'character.add', name: 'Duke', kind: 'npc', visibility: 'visible', stats: { hp: 5, maxHp: 5 } });
    s.run({
      type: 'encounter.start',
      combatants: [
        { id: 'rat', name: 'Rat', kind: 'npc', stats: { creatureType: 'rat', hp: 4, maxHp: 4 } },
        { id: 'duke', name: 'Duke', kind: 'npc', characterId: charId(s, 'Duke'), stats: { creatureType: 'duke' } },
        { id: 'lurk', name: 'Lurker', kind: 'npc', visibility: 'hidden', stats: { creatureType: 'shade', hp: 3 } },
      ],
    });
    expect(seenStats(s, player, 'rat')).toEqual({});
    expect(seenStats(s, player, 'duke')).toEqual({});
    s.run({ type: 'encounter.damage', characterId: 'rat', amount: 4 });
    s.run({ type: 'encounter.damage', characterId: 'duke', amount: 9 });
    s.run({ type: 'encounter.damage', characterId: 'lurk', amount: 3 });
    expect(seenStats(s, player, 'rat')).toEqual({ hp: 0 });
    expect(seenStats(s, player, 'duke')).toEqual({ hp: 0 });
    // Hidden: not in the phone's turn order at all.
    expect(getEncounter(s.view(player).world).combatants['lurk']).toBeUndefined();
    // Known to exist only: nothing of its state, not even its fall.
    s.run({ type: 'encounter.obscure', characterId: 'lurk' });
    expect(seenStats(s, player, 'lurk')).toEqual({});
    // Healed back: no longer fallen (the memo of the projection follows the character's HP).
    s.run({ type: 'encounter.heal', characterId: 'duke', amount: 2 });
    expect(seenStats(s, player, 'duke')).toEqual({});
  });

  it('OSR: a monster character at 0 HP (the ruleset\'s own fall) is fallen on phones; its AC stays the GM\'s', () => {
    const { s, player } = tableOf('osr');
    s.run({ type: 'character.add', name: 'Goblin', kind: 'npc', visibility: 'visible', stats: { hp: 3, maxHp: 3, ac: 13 } });
    s.run({ type: 'character.add', name: 'Kira', kind: 'pc', stats: { hp: 8, maxHp: 8 } });
    s.run({
      type: 'encounter.start',
      combatants: [
        { id: 'gob', name: 'Goblin', kind: 'npc', characterId: charId(s, 'Goblin'), stats: { dex: 12 } },
        { id: 'kira', name: 'Kira', kind: 'pc', characterId: charId(s, 'Kira'), stats: { dex: 14 } },
      ],
    });
    expect(seenStats(s, player, 'gob')).toEqual({});
    s.run({ type: 'encounter.damage', characterId: 'gob', amount: 3 });
    expect(seenStats(s, player, 'gob')).toEqual({ hp: 0 });
    expect(JSON.stringify(s.view(player).world.characters[charId(s, 'Goblin')]?.stats)).not.toContain('13');
  });

  it('Daggerheart: an adversary with every HP slot marked is fallen on phones', () => {
    const { s, player } = tableOf('daggerheart');
    s.run({ type: 'daggerheart.addAdversaries', name: 'Bandit', difficulty: 12, major: 7, severe: 14, hp: 2, stress: 1, attack: 1, visibility: 'visible' });
    const bandit = charId(s, 'Bandit');
    s.run({ type: 'encounter.start', combatants: [{ id: 'b', name: 'Bandit', kind: 'npc', characterId: bandit }] });
    expect(seenStats(s, player, 'b')).toEqual({});
    s.run({ type: 'character.update', id: bandit, stats: { ...s.world.characters[bandit]!.stats, hpMarked: 2 } });
    expect(seenStats(s, player, 'b')).toEqual({ hp: 0 });
  });
});
