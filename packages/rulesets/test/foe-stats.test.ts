// A foe character's stats are the GM's in Daggerheart and the Kleptonomicon
// too (ADR 33, issue 15): on the registry's engines (sheet and foes modules),
// players read an adversary's name and that it is one, its Difficulty once
// defences are revealed; the character.added event in history carries no
// more than the state does.
import { describe, expect, it } from 'vitest';
import { seededRng, type Json, type Scenario, type TableView, type Viewer } from '@tablekeeper/engine';
import { scenario } from '@tablekeeper/engine';
import { engineFor } from '../src/registry.js';

const GM: Viewer = { role: 'gm' };

function tableOf(rulesetId: string): { s: Scenario; player: Viewer } {
  const s = scenario(engineFor(rulesetId)!.modules, { rng: seededRng(3), rulesetId });
  const tx = s.run({ type: 'seat.add', name: 'Ann' });
  const seatId = String(tx.kind === 'command' ? tx.events[0]!['id'] : '');
  return { s, player: { role: 'player', seatId } };
}
const added = (v: TableView, id: string): Json | undefined => v.history.flatMap((t) => t.events).find((e) => e.type === 'character.added' && e['id'] === id)?.['stats'];

describe("Daggerheart: an adversary's stats reach players by declared fields", () => {
  it('a Bandit (Difficulty 12, thresholds 7/14, 5 HP) shows players only that it is an adversary; defences add its Difficulty', () => {
    const { s, player } = tableOf('daggerheart');
    s.run({ type: 'daggerheart.addAdversaries', name: 'Bandit', difficulty: 12, major: 7, severe: 14, hp: 5, stress: 2, attack: 1, visibility: 'visible' });
    const id = Object.values(s.world.characters).find((c) => c.name.startsWith('Bandit'))!.id;
    expect(s.view(GM).world.characters[id]!.stats).toMatchObject({ adversary: true, difficulty: 12, major: 7, severe: 14, hpMax: 5 });
    expect(s.view(player).world.characters[id]!.stats).toEqual({ adversary: true });
    expect(added(s.view(player), id)).toEqual({ adversary: true });
    s.run({ type: 'foes.reveal', reveal: 'defences' });
    expect(s.view(player).world.characters[id]!.stats).toEqual({ adversary: true, difficulty: 12 });
    s.run({ type: 'foes.reveal', reveal: 'all' });
    expect(s.view(player).world.characters[id]!.stats).toEqual(s.view(GM).world.characters[id]!.stats);
    expect(added(s.view(player), id)).toEqual(added(s.view(GM), id));
  });

  it("a PC's stats, and an NPC a seat holds, stay whole for players", () => {
    const { s, player } = tableOf('daggerheart');
    const seatId = (player as { seatId: string }).seatId;
    s.run({ type: 'character.add', name: 'Rook', kind: 'pc', seatId, stats: { evasion: 11, major: 6, severe: 12 } });
    s.run({ type: 'character.add', name: 'Hound', kind: 'npc', seatId, visibility: 'visible', stats: { evasion: 9 } });
    const seen = s.view(player).world.characters;
    expect(Object.values(seen).find((c) => c.name === 'Rook')!.stats).toEqual({ evasion: 11, major: 6, severe: 12 });
    expect(Object.values(seen).find((c) => c.name === 'Hound')!.stats).toEqual({ evasion: 9 });
  });
});

describe("Kleptonomicon: a foe's sheet and resources are the GM's", () => {
  it("a Goon's Edge Save and health reach no player until the table shows every number", () => {
    const { s, player } = tableOf('kleptonomicon');
    const tx = s.run({ type: 'character.add', name: 'Goon', kind: 'npc', visibility: 'visible', stats: { edgeSave: 3, sneaky: true } });
    const goon = String(tx.kind === 'command' ? tx.events[0]!['id'] : '');
    s.run({ type: 'kleptonomicon.setResource', characterId: goon, key: 'health', value: 7, max: 13 });
    const resources = (v: TableView) => (v.world.ext['kleptonomicon'] as { resources: { [id: string]: Json } }).resources;
    expect(s.view(player).world.characters[goon]!.stats).toEqual({});
    expect(resources(s.view(player))).not.toHaveProperty(goon);
    expect(resources(s.view(GM))[goon]).toMatchObject({ health: { value: 7, max: 13 } });
    expect(added(s.view(player), goon)).toEqual({});
    s.run({ type: 'foes.reveal', reveal: 'all' });
    expect(s.view(player).world.characters[goon]!.stats).toEqual({ edgeSave: 3, sneaky: true });
    expect(resources(s.view(player))[goon]).toMatchObject({ health: { value: 7, max: 13 } });
  });
});
