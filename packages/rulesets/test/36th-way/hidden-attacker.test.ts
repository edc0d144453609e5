// A hidden foe's hit on a PC (review 12 #6): the attack line stays the GM's, but the
// PC's loss is a line players read, naming only the PC, never the hidden attacker.
import { describe, expect, it } from 'vitest';
import type { Json } from '@tablekeeper/engine';
import { ANN, ORC, events, table } from './setup.js';

describe('36th Way: a hidden attacker', () => {
  it("players read the PC's HP loss without the attacker; the GM reads both lines", () => {
    const t = table();
    t.s.run({ type: '36th-way.sheet.set', sheet: ANN as unknown as Json });
    t.s.run({ type: '36th-way.sheet.set', sheet: { ...ORC, name: 'Lurker' } as unknown as Json });
    t.s.run({
      type: 'encounter.start',
      combatants: [
        { id: 'orc', name: 'Lurker', kind: 'npc', side: 'foes', band: 'fast', visibility: 'hidden' },
        { id: 'ann', name: 'Ann', kind: 'pc', side: 'party', band: 'medium' },
      ],
    });
    t.s.run({ type: '36th-way.position', a: 'ann', b: 'orc', range: 'engaged' });
    // A natural 17 hits AC 15 (a crit here); the damage dice all show 3.
    t.dice.push(6, 6, 5, ...Array.from({ length: 12 }, () => 3));
    const tx = t.s.run({ type: '36th-way.attack', attacker: 'orc', targets: ['ann'], basic: 'melee' });
    const hit = events(tx, '36th-way.damaged')[0]!;
    expect(hit['sourceId']).toBe('orc');
    const lost = Number(hit['amount']);
    expect(lost).toBeGreaterThan(0);
    const line = new RegExp(`^Ann took ${lost} damage( \\(crit\\))?: 30 -> ${30 - lost} HP`);
    const gmLog = t.s.view({ role: 'gm' }).world.log.map((l) => l.text);
    expect(gmLog.some((l) => l.startsWith('Lurker attacked Ann'))).toBe(true);
    expect(gmLog.some((l) => line.test(l))).toBe(true);
    const seen = t.s.view({ role: 'spectator' });
    const phoneLog = seen.world.log.map((l) => l.text);
    expect(phoneLog.filter((l) => line.test(l))).toHaveLength(1);
    expect(JSON.stringify(seen)).not.toContain('Lurker');
    expect(JSON.stringify(seen)).not.toContain('"orc"');
  });
});
