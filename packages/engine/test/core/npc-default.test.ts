// Enemy stats are the GM's by default: an NPC character shows players its name
// only until the GM makes it visible; a PC is visible from the start.
import { describe, expect, it } from 'vitest';
import { scenario } from '../../src/core/index.js';

describe('character visibility defaults', () => {
  it('an NPC added without a visibility is name-only for players and spectators; the GM reveals it in full', () => {
    const s = scenario([]);
    s.run({ type: 'seat.add', name: 'Ann' });
    s.run({ type: 'character.add', name: 'Brannoc', kind: 'pc', seatId: 'seat-1', stats: { hp: 12 } });
    s.run({ type: 'character.add', name: 'Ogre', kind: 'npc', stats: { ac: 17, hp: 40 } });
    const ogre = Object.values(s.world.characters).find((c) => c.name === 'Ogre')!;
    expect(ogre.visibility).toBe('existence');
    for (const v of [{ role: 'player', seatId: 'seat-1' } as const, { role: 'spectator' } as const]) {
      const seen = s.view(v).world.characters;
      expect(seen[ogre.id]).toMatchObject({ name: 'Ogre', stats: {} });
      expect(Object.values(seen).find((c) => c.name === 'Brannoc')?.stats).toEqual({ hp: 12 });
    }
    s.run({ type: 'character.update', id: ogre.id, visibility: 'visible' });
    expect(s.view({ role: 'spectator' }).world.characters[ogre.id]?.stats).toEqual({ ac: 17, hp: 40 });
  });
});
