import { it } from 'vitest';
import type { Json, Viewer } from '@tablekeeper/engine';
import { tswFoeSheet, BLOCK_ATTACK_ID } from '../../src/foe-sheets.js';
import { table, ANN } from './setup.js';
const GM: Viewer = { role: 'gm' };
it('probe', () => {
  const t = table();
  t.s.run({ type: '36th-way.sheet.set', sheet: { ...ANN } as unknown as Json });
  for (const id of ['o1', 'o2']) t.s.run({ type: '36th-way.sheet.set', sheet: { id, name: id, kind: 'npc', maxHp: 20, ...tswFoeSheet({ hp: 20, level: 2, ac: 16, pd: 14, md: 11, attackName: 'Spear', attackBonus: 7, attackVs: 'ac', damage: '2d6' }) } as unknown as Json });
  t.s.run({ type: 'encounter.start', combatants: [ { id: 'o1', name: 'o1', kind: 'npc', side: 'foes', band: 'fast' }, { id: 'o2', name: 'o2', kind: 'npc', side: 'foes', band: 'medium' }, { id: 'ann', name: 'Ann', kind: 'pc', side: 'party', band: 'slow' } ] });
  const r = t.s.engine.query(t.s.table, GM, '36th-way.actions', { combatantId: 'o1' });
  console.log(JSON.stringify(r, null, 1).slice(0, 3000));
  try { const tx = t.s.run({ type: '36th-way.attack', attackerId: 'o1', targetIds: ['ann'], ability: BLOCK_ATTACK_ID }); console.log(JSON.stringify(tx).slice(0,500)); } catch (e) { console.log(String(e)); }
});
