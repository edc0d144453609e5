// The on-deck combatant a player's view carries is computed on that player's
// projection, where a secret sheet is only its status words: a foe whose sheet
// is secret but who can act is still on deck for players, as for the GM.
import { describe, expect, it } from 'vitest';
import type { Viewer } from '@tablekeeper/engine';
import { boudica, enemy, sheetFor, start, table, turnTo } from './helpers.js';

function setup(foe: object): { s: ReturnType<typeof table>['s']; ann: Viewer } {
  const { s } = table();
  s.run({ type: 'seat.add', name: 'Ann' });
  const seatId = Object.keys(s.world.seats)[0]!;
  s.run({ type: 'character.add', name: 'Boudica', kind: 'pc', seatId });
  const ch = Object.keys(s.world.characters)[0]!;
  sheetFor(s, 'boudica', { ...boudica, characterId: ch });
  sheetFor(s, 'foe', enemy({ secret: true, ...foe }));
  start(s, {
    type: 'encounter.start',
    combatants: [
      { id: 'boudica', kind: 'pc', side: 'players', characterId: ch },
      { id: 'foe', kind: 'npc', side: 'foes' },
    ],
    params: { teamOrder: ['players', 'foes'] },
  });
  turnTo(s, 'boudica');
  return { s, ann: { role: 'player', seatId } };
}

const onDeck = (s: ReturnType<typeof table>['s'], v: Viewer): string | null | undefined => (s.view(v).world.ext['encounter'] as { onDeck?: string | null }).onDeck;

describe('teams: on deck in a player\'s view', () => {
  it('a visible foe with a secret sheet who can act is on deck for players too', () => {
    const { s, ann } = setup({});
    expect(onDeck(s, { role: 'gm' })).toBe('foe');
    expect(onDeck(s, ann)).toBe('foe');
    expect(onDeck(s, { role: 'spectator' })).toBe('foe');
  });

  it('an unconscious foe with a secret sheet is on deck for nobody (its status words are public)', () => {
    const { s, ann } = setup({ conscious: false });
    expect(onDeck(s, { role: 'gm' })).not.toBe('foe');
    expect(onDeck(s, ann)).toBe(onDeck(s, { role: 'gm' }));
  });
});
