// The 36th Way's projector is default-deny (ADR 18): a sheet reaches players
// only when something vouches for it, and then field by field. Leaks the
// secrecy suite found once it put canaries into PC sheets too.
import { describe, expect, it } from 'vitest';
import type { Json } from '@tablekeeper/engine';
import { table } from './setup.js';

const PLAYERS = [{ role: 'player', seatId: 'seat-1' }, { role: 'spectator' }] as const;
const sheet = (id: string, name: string, extra: object = {}) => ({ id, name, kind: 'pc', level: 1, maxHp: 10, hp: 10, ...extra }) as unknown as Json;

describe('36th Way sheets players may not see', () => {
  it("a hidden PC combatant's sheet is in no player's or spectator's view, nor in their log", () => {
    const t = table();
    t.s.run({ type: 'seat.add', name: 'Ann' });
    t.s.run({ type: '36th-way.sheet.set', sheet: sheet('ann', 'Ann') });
    t.s.run({ type: '36th-way.sheet.set', sheet: sheet('spy', 'Whisper') });
    t.s.run({ type: 'encounter.start', combatants: [{ id: 'ann', kind: 'pc', band: 'fast' }, { id: 'spy', kind: 'pc', band: 'fast', visibility: 'hidden' }] });
    for (const v of PLAYERS) {
      const text = JSON.stringify(t.s.view(v));
      expect(text).not.toContain('Whisper');
      expect(text).toContain('"ann"');
    }
  });

  it("a hidden character's sheet, its damage line, and the sheet left after the character is removed stay the GM's", () => {
    const t = table();
    t.s.run({ type: 'seat.add', name: 'Ann' });
    const tx = t.s.run({ type: 'character.add', name: 'Vesper', kind: 'pc', visibility: 'hidden' });
    const id = String((tx as unknown as { events: { id: string }[] }).events[0]!.id);
    t.s.run({ type: '36th-way.sheet.set', sheet: sheet(id, 'Vesper', { characterId: id }) });
    t.s.run({ type: '36th-way.damage', target: id, amount: 3 });
    for (const v of PLAYERS) expect(JSON.stringify(t.s.view(v))).not.toContain('Vesper');
    expect(JSON.stringify(t.s.view({ role: 'gm' }))).toContain('Vesper took 3 damage');
    t.s.run({ type: 'character.remove', id });
    for (const v of PLAYERS) expect(JSON.stringify(t.s.view(v))).not.toContain('Vesper');
  });

  it('a shown sheet carries only the listed fields: a field the projector does not know stays with the GM', () => {
    const t = table();
    t.s.run({ type: '36th-way.sheet.set', sheet: sheet('ann', 'Ann') });
    t.s.run({ type: 'encounter.start', combatants: [{ id: 'ann', kind: 'pc', band: 'fast' }] });
    // A field a future version might add, written straight into the state as a reducer would.
    const st = t.s.table.world.ext['36th-way'] as { sheets: { [k: string]: object } };
    const world = { ...t.s.table.world, ext: { ...t.s.table.world.ext, '36th-way': { ...st, sheets: { ann: { ...st.sheets['ann'], gmNotes: 'owes the thieves guild' } } } as unknown as Json } };
    const seen = t.s.engine.project(world, { role: 'spectator' });
    expect(JSON.stringify(seen)).not.toContain('thieves guild');
    expect(JSON.stringify(seen)).toContain('"name":"Ann"');
  });
});
