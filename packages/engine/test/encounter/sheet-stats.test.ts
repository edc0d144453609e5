// ADR 16: a ruleset's sheetStats hook lets the turn order read a linked
// character's sheet (without copying it into the combatant), and spends may
// be paid out of the next turn's pool (forNextTurn).
import { describe, expect, it } from 'vitest';
import type { Json, World } from '../../src/core/types.js';
import { scoreSequencer } from '../../src/encounter/sequencers/score.js';
import { BEATS_ECONOMY, OSR_ECONOMY } from '../../src/encounter/economies.js';
import { encounterModule, economyOf, spendEvent } from '../../src/encounter/module.js';
import { edgeSaveSequencer } from '../../src/encounter/sequencers/edge-save.js';
import type { Combatant, EncounterRules } from '../../src/encounter/types.js';
import { Table } from './harness.js';

const dexFromSheet = (world: World, c: Combatant): { [k: string]: Json } => {
  const dex = c.characterId === null ? undefined : world.characters[c.characterId]?.stats['dex'];
  return typeof dex === 'number' ? { dex } : {};
};

function withCharacter(rules: EncounterRules, dex: Json | undefined): { t: Table; ch: string } {
  const t = new Table([encounterModule(rules)]);
  const ev = t.ok({ type: 'character.add', name: 'Ada', kind: 'pc', stats: dex === undefined ? {} : { dex } });
  return { t, ch: String(ev[0]!['id']) };
}

describe('sheetStats: the turn order reads the linked character\'s sheet (ADR 16)', () => {
  const rules: EncounterRules = { sequencer: scoreSequencer(), economy: OSR_ECONOMY, conditions: [], sheetStats: dexFromSheet };

  it('a linked PC with no stats of its own is placed by the sheet\'s DEX 16, ahead of a DEX 12 NPC; the stored combatant keeps its own stats', () => {
    const { t, ch } = withCharacter(rules, 16);
    t.ok({ type: 'encounter.start', combatants: [{ id: 'ada', kind: 'pc', characterId: ch }, { id: 'orc', kind: 'npc', stats: { dex: 12 } }] });
    expect(t.enc.combatants['ada']).toMatchObject({ placement: { score: 16 }, stats: {} });
    expect(t.enc.current).toBe('ada');
  });

  it('the sheet wins over the combatant\'s own number; a combatant added mid-fight and a re-placed one read it too', () => {
    const { t, ch } = withCharacter(rules, 16);
    t.ok({ type: 'encounter.start', combatants: [{ id: 'orc', kind: 'npc', stats: { dex: 12 } }] });
    t.ok({ type: 'encounter.add', combatant: { id: 'ada', kind: 'pc', characterId: ch, stats: { dex: 3 } } });
    expect(t.enc.combatants['ada']!.placement).toMatchObject({ score: 16 });
    t.ok({ type: 'character.update', id: ch, stats: { dex: 8 } });
    t.ok({ type: 'encounter.place', id: 'ada', placement: {} });
    expect(t.enc.combatants['ada']!.placement).toMatchObject({ score: 8 });
  });

  it('without the hook, or with nothing on the sheet, the combatant\'s own stats (or an explicit score) are used as before', () => {
    const plain = withCharacter({ ...rules, sheetStats: undefined } as EncounterRules, 16);
    plain.t.ok({ type: 'encounter.start', combatants: [{ id: 'ada', kind: 'pc', characterId: plain.ch, stats: { dex: 5 } }] });
    expect(plain.t.enc.combatants['ada']!.placement).toMatchObject({ score: 5 });
    const blank = withCharacter(rules, undefined);
    expect(blank.t.run({ type: 'encounter.start', combatants: [{ id: 'ada', kind: 'pc', characterId: blank.ch }] })).toMatchObject({ code: 'NO_SCORE', path: 'placement.score' });
  });
});

describe('forNextTurn spends (004 "Pause Phase": a Beat unavailable on your next Turn)', () => {
  const rules: EncounterRules = { sequencer: edgeSaveSequencer({ roll: () => ({ score: 9 }) }), economy: BEATS_ECONOMY, conditions: [] };

  it('paid ahead on one\'s own turn: this turn keeps both Beats, the next starts with one spent; a third ahead is refused', () => {
    const t = new Table([encounterModule(rules)]);
    t.ok({ type: 'encounter.start', combatants: [{ id: 'a', kind: 'pc' }, { id: 'g', kind: 'npc', stats: { creatureType: 'guard' } }] });
    expect(t.enc.current).toBe('a');
    for (let i = 0; i < 2; i++) expect(t.ok({ type: 'encounter.spend', combatant: 'a', kind: 'ability', forNextTurn: true })[0]).toMatchObject({ forNextTurn: true });
    expect(economyOf(t.world, 'a')).toMatchObject({ owed: { beats: 2 } });
    expect(economyOf(t.world, 'a').spent['beats'] ?? 0).toBe(0);
    expect(t.run({ type: 'encounter.spend', combatant: 'a', kind: 'ability', forNextTurn: true })).toMatchObject({ code: 'NO_ACTIONS_LEFT' });
    t.ok({ type: 'encounter.endTurn' });
    expect(economyOf(t.world, 'a')).toMatchObject({ spent: { beats: 2 }, owed: {} });
  });

  it('an ordinary spend carries no forNextTurn field (stored events stay as they were)', () => {
    const t = new Table([encounterModule(rules)]);
    t.ok({ type: 'encounter.start', combatants: [{ id: 'a', kind: 'pc' }, { id: 'g', kind: 'npc', stats: { creatureType: 'guard' } }] });
    const e = spendEvent(t.world, rules, 'a', { kind: 'ability' });
    expect(e.ok && 'forNextTurn' in e.value).toBe(false);
  });
});
