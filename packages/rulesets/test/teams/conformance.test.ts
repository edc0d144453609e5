// Secrecy conformance (issue 15, ADR 10) on the team game: hidden combatants
// carry canary team names and canary sheets; neither may reach a player or a
// spectator through the turn order's state, sheets (also after
// encounter.remove), history, log or refusals.
import { describe, expect, it } from 'vitest';
import { checkSecrecy, type StepMaker } from '@tablekeeper/engine/testing';
import type { Json } from '@tablekeeper/engine';
import { engineFor, resolveSettings } from '../../src/registry.js';
import { enemy, spear } from './helpers.js';

const engine = engineFor('teams')!;
const settings = resolveSettings('teams');
if (!settings.ok) throw new Error(settings.error.message);

const steps: StepMaker[] = [
  // A canary sheet for someone players may not read (a hidden combatant or character), or a secret one.
  (ctx, d) => {
    const id = ctx.pick([...ctx.hiddenIds(), ...ctx.combatantIds(), ...ctx.characterIds()], d.a, 'nobody');
    const hidden = ctx.hiddenIds().includes(id);
    // A secret sheet shows its name and status words by design (003 tables): its items are the canaries.
    const items = { [ctx.canary()]: { name: ctx.canary(), weapon: spear } };
    return { actor: { role: 'gm' }, command: { type: 'character.sheet.set', characterId: id, sheet: enemy(hidden ? { name: ctx.canary(), items } : { name: ctx.word(), secret: true, items }) as unknown as Json } };
  },
  (ctx, d) => ({ actor: { role: 'gm' }, command: { type: 'character.sheet.remove', characterId: ctx.pick(ctx.combatantIds(), d.a, 'nobody') } }),
  // character.sheet.set addresses a character or a creature in the fight (an unknown id is refused), so both are picked.
  // A public sheet on anyone in the fight (refused or shown as status words for hidden and veiled ones): words only,
  // so the planted-key property (ADR 25) finds records players read in full.
  (ctx, d) => {
    const id = ctx.pick([...ctx.combatantIds(), ...ctx.characterIds()].filter((x) => !ctx.hiddenIds().includes(x)), d.a, 'nobody');
    return { actor: { role: 'gm' }, command: { type: 'character.sheet.set', characterId: id, sheet: enemy({ name: ctx.word(), items: { [`item${d.b}`]: { name: ctx.word(), weapon: spear } } }) as unknown as Json } };
  },
];

const options = {
  engine,
  rulesetId: 'teams',
  settings: settings.value,
  steps,
  // A hidden combatant's team is a canary; everyone else is on one of two public teams.
  combatantExtra: (ctx: Parameters<StepMaker>[0], visibility: string, d: Parameters<StepMaker>[1]) => ({ team: visibility === 'hidden' ? ctx.canary() : d.a % 2 === 0 ? 'heroes' : 'foes' }),
  encounterParams: (_ctx: Parameters<StepMaker>[0], combatants: readonly { readonly id: string; readonly visibility: string }[]) => ({
    teamOrder: [...new Set(combatants.map((c) => String((c as unknown as { team: string }).team)))],
  }),
};

describe('secrecy conformance (ADR 10)', () => {
  it('no canary from hidden teams or secret and hidden sheets reaches a player or spectator (1,000 random sequences, seed 20261125)', { timeout: 120_000 }, () => {
    const report = checkSecrecy({ ...options, sequences: 1000 });
    expect(report.sequences).toBe(1000);
    expect(report.compared).toBeGreaterThan(0);
    expect(Object.keys(report.accepted)).toContain('character.sheet.set');
    expect(Object.keys(report.accepted)).toContain('encounter.start');
    expect(Object.keys(report.accepted)).toContain('encounter.remove');
  });

  it('a GM-only key planted in any record of the teams, encounter, countdowns, bestiary or timer state or in a character (free-form stats, params, save and detail too) reaches no player or spectator (default deny, ADR 25 and 33; 400 sequences)', { timeout: 120_000 }, () => {
    const report = checkSecrecy({ ...options, sequences: 400, seed: 20261126, compareWithWalk: false, plant: ['teams', 'encounter', 'countdowns', 'characters', 'bestiary', 'request', 'timer'] });
    expect(report.planted).toBeGreaterThan(200);
    for (const m of ['teams', 'encounter', 'countdowns']) expect(report.plantedIn[m]).toBeGreaterThan(10);
    expect(report.plantedIn['characters']).toBeGreaterThan(10);
    expect(report.plantedIn['bestiary']).toBeGreaterThan(0);
    expect(report.plantedIn['timer']).toBeGreaterThan(10);
    expect(Object.keys(report.accepted)).toContain('character.sheet.set');
  });
});
