// needActor: the one prelude of the per-combatant economy and roster commands
// (a running fight, then the combatant a creature id names in it).
import { describe, expect, it } from 'vitest';
import type { Command, Json } from '../../src/core/types.js';
import { scoreSequencer } from '../../src/encounter/sequencers/score.js';
import { OSR_ECONOMY } from '../../src/encounter/economies.js';
import { encounterModule } from '../../src/encounter/module.js';
import { needActor } from '../../src/encounter/input.js';
import type { EncounterRules } from '../../src/encounter/types.js';
import { Table } from './harness.js';

const rules: EncounterRules = { sequencer: scoreSequencer(), economy: OSR_ECONOMY, conditions: [] };
const roster = (adaCharacter: string): Json[] => [
  { id: 'ada', name: 'Ada', kind: 'pc', characterId: adaCharacter, stats: { dex: 14 } },
  { id: 'g1', name: 'Goblin', kind: 'npc', stats: { dex: 12 } },
];

/** Every command that begins with needActor, each with a payload that is valid but for its creature. */
const perCombatant = (who: string): Command[] => [
  { type: 'encounter.spend', characterId: who, kind: 'quick' },
  { type: 'encounter.cancelExtended', characterId: who },
  { type: 'encounter.grant', characterId: who, pool: 'quick' },
  { type: 'encounter.escalationSuppress', characterId: who, suppressed: true },
  { type: 'encounter.remove', characterId: who },
  { type: 'encounter.place', characterId: who, placement: { score: 3 } },
  { type: 'encounter.reorder', characterId: who, beforeId: null },
  { type: 'encounter.hide', characterId: who },
  { type: 'encounter.reveal', characterId: who },
  { type: 'encounter.obscure', characterId: who },
  { type: 'encounter.setIncapacitated', characterId: who, value: true },
];

describe('needActor', () => {
  it('answers NO_ENCOUNTER without a fight, and the fight with its combatant by combatant id or by character id', () => {
    const t = new Table([encounterModule(rules)]);
    // Ids are minted: read Ada's from the event.
    const ch = String(t.ok({ type: 'character.add', name: 'Ada', kind: 'pc' })[0]?.['id']);
    const none = needActor(t.world, 'ada');
    expect(none.ok ? null : none.error.code).toBe('NO_ENCOUNTER');
    t.ok({ type: 'encounter.start', combatants: roster(ch) });
    const byId = needActor(t.world, 'g1');
    expect(byId.ok && byId.value.combatant.id).toBe('g1');
    expect(byId.ok && byId.value.enc.active).toBe(true);
    const byCharacter = needActor(t.world, ch);
    expect(byCharacter.ok && byCharacter.value.combatant.id).toBe('ada');
    const missing = needActor(t.world, 'nobody', 'beforeId');
    expect(missing.ok ? null : missing.error).toMatchObject({ code: 'NOT_FOUND', path: 'beforeId' });
  });

  it('every economy and roster command that uses it refuses the same way: no fight, then an unknown creature by path', () => {
    const t = new Table([encounterModule(rules)]);
    for (const c of perCombatant('g1')) expect([c.type, t.run(c)?.code]).toEqual([c.type, 'NO_ENCOUNTER']);
    t.ok({ type: 'encounter.start', combatants: roster('ch-none') });
    const before = t.table;
    for (const c of perCombatant('nobody')) expect([c.type, t.run(c)]).toMatchObject([c.type, { code: 'NOT_FOUND', path: 'characterId' }]);
    // Refusals leave the table as it was.
    expect(t.table).toBe(before);
  });
});
