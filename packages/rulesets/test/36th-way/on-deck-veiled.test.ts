// A combatant players know only to exist ("Unknown") keeps its state secret,
// and the on-deck name in a player's view must not give it away: a veiled foe
// the GM has secretly killed is still on deck for players until its turn comes.
import { describe, expect, it } from 'vitest';
import { getEncounter, type Json, type Viewer } from '@tablekeeper/engine';
import { table, ANN, ORC } from './setup.js';

const SPECTATOR: Viewer = { role: 'spectator' };
const onDeck = (t: ReturnType<typeof table>, v: Viewer): string | null | undefined => (t.s.view(v).world.ext['encounter'] as { onDeck?: string | null }).onDeck;

function setup(): ReturnType<typeof table> {
  const t = table();
  t.s.run({ type: '36th-way.sheet.set', sheet: { ...ANN } as unknown as Json });
  t.s.run({ type: '36th-way.sheet.set', sheet: { ...ORC } as unknown as Json });
  t.s.run({ type: '36th-way.sheet.set', sheet: { ...ORC, id: 'shade', name: 'Shade' } as unknown as Json });
  t.s.run({
    type: 'encounter.start',
    combatants: [
      { id: 'ann', name: 'Ann', kind: 'pc', side: 'party', band: 'fast' },
      { id: 'shade', name: 'Shade', kind: 'npc', side: 'foes', band: 'medium', visibility: 'existence' },
      { id: 'orc', name: 'Orc', kind: 'npc', side: 'foes', band: 'slow' },
    ],
  });
  for (let i = 0; i < 5 && getEncounter(t.world).current !== 'ann'; i++) t.s.run(getEncounter(t.world).current === null ? { type: 'encounter.advance' } : { type: 'encounter.endTurn' });
  expect(getEncounter(t.world).current).toBe('ann');
  return t;
}

describe('36th Way: on deck and a veiled combatant', () => {
  it('a veiled foe is on deck for everyone while it can act', () => {
    const t = setup();
    expect(onDeck(t, { role: 'gm' })).toBe('shade');
    expect(onDeck(t, SPECTATOR)).toBe('shade');
  });

  it('a veiled foe killed in secret is skipped for the GM, but players\' on deck does not reveal it', () => {
    const t = setup();
    t.s.run({ type: '36th-way.damage', target: 'shade', amount: 100 });
    expect(onDeck(t, { role: 'gm' })).toBe('orc');
    expect(onDeck(t, SPECTATOR)).toBe('shade');
    // Its turn then passes as before: the kernel skips it and the Orc acts.
    t.s.run({ type: 'encounter.endTurn' });
    expect(getEncounter(t.world).current).toBe('orc');
  });
});
