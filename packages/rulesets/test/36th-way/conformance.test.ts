// Secrecy conformance (issue 15, ADR 10 and 18) on The 36th Way: hidden
// combatants and characters with canary sheets (names and ability names; an
// enemy's or a PC's); none may reach a player or a spectator.
import { describe, expect, it } from 'vitest';
import { checkSecrecy, type StepMaker } from '@tablekeeper/engine/testing';
import type { Json } from '@tablekeeper/engine';
import { engineFor, resolveSettings } from '../../src/registry.js';

const engine = engineFor('36th-way')!;
const settings = resolveSettings('36th-way');
if (!settings.ok) throw new Error(settings.error.message);

const steps: StepMaker[] = [
  // An enemy's sheet, or a PC's for a hidden combatant or character (a PC sheet tied to nothing is public, so it gets none).
  (ctx, d) => {
    const hidden = ctx.hiddenIds();
    const kind = d.b % 2 === 0 || hidden.length === 0 ? 'npc' : 'pc';
    return {
      actor: { role: 'gm' },
      command: {
        type: '36th-way.sheet.set',
        sheet: { id: ctx.pick(hidden, d.a, 'nobody'), name: ctx.canary(), kind, level: 2, maxHp: 20, hp: 20, abilities: [{ id: 'claw', name: ctx.canary(), frequency: 'at-will' }] } as unknown as Json,
      },
    };
  },
  (ctx, d) => ({ actor: { role: 'gm' }, command: { type: '36th-way.damage', target: ctx.pick(ctx.hiddenIds(), d.a, 'nobody'), amount: 3 } }),
];

describe('secrecy conformance (ADR 10)', () => {
  it('no canary from hidden combatants or their sheets reaches a player or spectator (1,000 random sequences, seed 20261125)', { timeout: 120_000 }, () => {
    const bands = ['very-fast', 'fast', 'medium', 'slow', 'very-slow'];
    const report = checkSecrecy({ engine, rulesetId: '36th-way', settings: settings.value, steps, combatantExtra: (_ctx, _v, d) => ({ band: bands[d.a % 5]! }), sequences: 1000 });
    expect(report.sequences).toBe(1000);
    expect(report.compared).toBeGreaterThan(0);
    expect(Object.keys(report.accepted)).toContain('36th-way.sheet.set');
    expect(Object.keys(report.accepted)).toContain('encounter.start');
    expect(Object.keys(report.accepted)).toContain('encounter.remove');
  });

  it('a GM-only key planted in any record of the 36th-way, encounter, countdowns, bestiary or timer state or in a character (free-form stats, params, save and detail too) reaches no player or spectator (default deny, ADR 25 and 33; 400 sequences)', { timeout: 120_000 }, () => {
    const report = checkSecrecy({ engine, rulesetId: '36th-way', settings: settings.value, steps, combatantExtra: (_ctx, _v, d) => ({ band: ['very-fast', 'fast', 'medium', 'slow', 'very-slow'][d.a % 5]! }), sequences: 400, seed: 20261126, compareWithWalk: false, plant: ['36th-way', 'encounter', 'countdowns', 'characters', 'bestiary', 'request', 'timer'] });
    expect(report.planted).toBeGreaterThan(100);
    for (const m of ['encounter', 'countdowns']) expect(report.plantedIn[m]).toBeGreaterThan(10);
    expect(report.plantedIn['characters']).toBeGreaterThan(10);
    expect(report.plantedIn['bestiary']).toBeGreaterThan(0);
    expect(report.plantedIn['timer']).toBeGreaterThan(10);
  });
});
