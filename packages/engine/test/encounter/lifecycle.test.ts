// A game night's encounters on one table: the next fight after the last one
// ends (numbered, both kept in the log), defeated foes skipped, and the damage
// box's hit point changes (logged, clamped, undoable, secret when hidden).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Json, Viewer } from '../../src/core/types.js';
import { scoreSequencer } from '../../src/encounter/sequencers/score.js';
import { bandsSequencer } from '../../src/encounter/sequencers/bands.js';
import { BANDS_ECONOMY, OSR_ECONOMY } from '../../src/encounter/economies.js';
import { encounterModule, isDefeated } from '../../src/encounter/module.js';
import type { EncounterRules } from '../../src/encounter/types.js';
import { Table, playRound } from './harness.js';
import { fictionTime } from '../../src/core/module.js';

const rules: EncounterRules = { sequencer: scoreSequencer(), economy: OSR_ECONOMY, conditions: [] };
const ann: Viewer = { role: 'player', seatId: 's1' };
const roster: Json[] = [
  { id: 'ada', name: 'Ada', kind: 'pc', stats: { dex: 14, hp: 9, maxHp: 9 } },
  { id: 'g1', name: 'Goblin 1', kind: 'npc', stats: { dex: 12, hp: 5, maxHp: 5 } },
  { id: 'g2', name: 'Goblin 2', kind: 'npc', stats: { dex: 10, hp: 5, maxHp: 5 } },
];
const texts = (t: Table, v: Viewer = { role: 'gm' }) => t.engine.view(t.table, v).world.log.map((e) => e.text);

describe('many encounters per table', () => {
  it('after the first fight ends the next one starts, numbered, and both stay in the log', () => {
    const t = new Table([encounterModule(rules)]);
    t.ok({ type: 'encounter.start', combatants: roster });
    expect(t.enc.number).toBe(1);
    t.ok({ type: 'encounter.end' });
    expect(t.run({ type: 'encounter.end' })?.code).toBe('NO_ENCOUNTER');
    t.ok({ type: 'encounter.start', combatants: [roster[0]!, { id: 'wolf', name: 'Wolf', kind: 'npc', stats: { dex: 15, hp: 11 } }] });
    expect(t.enc.number).toBe(2);
    expect(t.enc.round).toBe(1);
    expect(t.enc.current).toBe('wolf');
    expect(Object.keys(t.enc.combatants).sort()).toEqual(['ada', 'wolf']);
    t.ok({ type: 'encounter.end' });
    const log = texts(t);
    expect(log.filter((x) => /begins\.$/.test(x) && !x.startsWith('Round'))).toEqual(['The encounter begins.', 'Encounter 2 begins.']);
    expect(log).toContain('The encounter ends after round 1.');
    expect(log).toContain('Encounter 2 ends after round 1.');
    // Players read the same numbers.
    expect(texts(t, ann)).toContain('Encounter 2 begins.');
    // Undoing the second start brings back the ended first fight, number 1.
    t.ok({ type: 'encounter.start', combatants: roster });
    expect(t.enc.number).toBe(3);
    t.undo();
    expect(t.enc.number).toBe(2);
    expect(t.enc.active).toBe(false);
  });

  it('the count is rebuilt by replay, not carried in events (tables recorded before numbering read the same)', () => {
    const t = new Table([encounterModule(rules)]);
    t.ok({ type: 'encounter.start', combatants: roster });
    t.ok({ type: 'encounter.end' });
    t.ok({ type: 'encounter.start', combatants: roster });
    const started = t.history.flat().filter((e) => e.type === 'encounter.started');
    expect(started).toHaveLength(2);
    for (const e of started) expect(e['number']).toBeUndefined();
    const replayed = t.engine.replay(t.table.genesis, t.table.transactions);
    expect(replayed.world).toEqual(t.world);
  });
});

describe('defeated foes are skipped', () => {
  it('a foe at 0 HP never takes a turn; the round goes on to the next one able (001 "Death & Injury": monsters die at 0 HP)', () => {
    const t = new Table([encounterModule(rules)]);
    t.ok({ type: 'encounter.start', combatants: roster });
    expect(playRound(t)).toEqual(['ada', 'g1', 'g2']);
    // Ada's turn in round 2: Goblin 1 (next) drops to 0 from 5 after 7 damage.
    t.ok({ type: 'encounter.damage', id: 'g1', amount: 7 });
    expect(t.enc.combatants['g1']!.stats['hp']).toBe(0);
    expect(isDefeated(t.enc.combatants['g1']!)).toBe(true);
    expect(playRound(t)).toEqual(['ada', 'g2']);
    expect(playRound(t)).toEqual(['ada', 'g2']);
    // Healed back up, it acts again.
    t.ok({ type: 'encounter.heal', id: 'g1', amount: 2 });
    expect(playRound(t)).toEqual(['ada', 'g1', 'g2']);
  });

  it('a PC at 0 HP is left to the ruleset (the kernel does not skip PCs: 002 dying heroes roll death saves on their turn)', () => {
    const t = new Table([encounterModule(rules)]);
    t.ok({ type: 'encounter.start', combatants: roster });
    t.ok({ type: 'encounter.damage', id: 'ada', amount: 20 });
    expect(t.enc.combatants['ada']!.stats['hp']).toBe(0);
    t.ok({ type: 'encounter.endTurn' });
    expect(playRound(t)).toEqual(['g1', 'g2']);
    expect(playRound(t)).toEqual(['ada', 'g1', 'g2']);
  });

  it('in a band chosen by the GM, a fallen foe drops out of the choice at once', () => {
    const bands: EncounterRules = { sequencer: bandsSequencer(), economy: BANDS_ECONOMY, conditions: [] };
    const t = new Table([encounterModule(bands)]);
    t.ok({
      type: 'encounter.start',
      combatants: [
        { id: 'ada', kind: 'pc', stats: { band: 'slow', hp: 20 } },
        { id: 'o1', kind: 'npc', stats: { band: 'fast', hp: 8 } },
        { id: 'o2', kind: 'npc', stats: { band: 'fast', hp: 8 } },
      ],
    });
    // Two foes in band fast: the GM picks (default the first joined); o1 goes, then o2 is the only one left.
    expect(t.enc.current ?? t.enc.pending?.options).toEqual(['o1', 'o2']);
    t.ok({ type: 'encounter.damage', id: 'o1', amount: 8 });
    expect(t.enc.current).toBe('o2');
  });

  it('when nobody can act the tracker stops rather than spins: advance says so', () => {
    const t = new Table([encounterModule(rules)]);
    t.ok({ type: 'encounter.start', combatants: [roster[1]!] });
    t.ok({ type: 'encounter.damage', id: 'g1', amount: 5 });
    t.ok({ type: 'encounter.endTurn' });
    expect(t.enc.current).toBeNull();
    expect(t.run({ type: 'encounter.advance' })?.code).toBe('CANNOT_ADVANCE');
    t.ok({ type: 'encounter.end' });
  });
});

describe('the damage box (encounter.damage / encounter.heal)', () => {
  it('takes and restores hit points, stopping at 0 and at maxHp, each a logged, undoable step', () => {
    const t = new Table([encounterModule(rules)]);
    t.ok({ type: 'encounter.start', combatants: roster });
    t.ok({ type: 'encounter.damage', id: 'g2', amount: 3 });
    expect(t.enc.combatants['g2']!.stats['hp']).toBe(2);
    t.ok({ type: 'encounter.heal', id: 'g2', amount: 7 });
    expect(t.enc.combatants['g2']!.stats['hp']).toBe(5);
    t.ok({ type: 'encounter.damage', id: 'g2', amount: 9 });
    expect(t.enc.combatants['g2']!.stats['hp']).toBe(0);
    // One line each, with the result for the GM (5 - 3 = 2, 2 + 7 capped at 5, 5 - 9 stops at 0); a foe's HP stay the GM's.
    expect(texts(t).slice(-3)).toEqual(['Goblin 2 takes 3 damage (HP 5 → 2).', 'Goblin 2 is healed by 7 (HP 2 → 5).', 'Goblin 2 takes 9 damage (HP 5 → 0) and is defeated.']);
    expect(texts(t, { role: 'spectator' }).slice(-3)).toEqual(['Goblin 2 takes 3 damage.', 'Goblin 2 is healed by 7.', 'Goblin 2 takes 9 damage and is defeated.']);
    t.undo();
    expect(t.enc.combatants['g2']!.stats['hp']).toBe(5);
    expect(texts(t).at(-1)).toBe('Goblin 2 is healed by 7 (HP 2 → 5).');
  });

  it('a linked character keeps its hit points on its sheet', () => {
    const t = new Table([encounterModule(rules)]);
    t.ok({ type: 'character.add', name: 'Roland', kind: 'pc', stats: { hp: 12, maxHp: 12 } });
    const chId = Object.keys(t.world.characters)[0]!;
    t.ok({ type: 'encounter.start', combatants: [{ id: 'r', name: 'Roland', kind: 'pc', characterId: chId, stats: { dex: 11 } }] });
    t.ok({ type: 'encounter.damage', id: 'r', amount: 4 });
    expect(t.world.characters[chId]!.stats['hp']).toBe(8);
    t.ok({ type: 'encounter.heal', id: 'r', amount: 10 });
    expect(t.world.characters[chId]!.stats['hp']).toBe(12);
    expect(t.enc.combatants['r']!.stats['hp']).toBeUndefined();
  });

  it('refuses what it cannot do, with the field named', () => {
    const t = new Table([encounterModule(rules)]);
    t.ok({ type: 'encounter.start', combatants: [...roster, { id: 'x', name: 'Fog', kind: 'npc', stats: { dex: 1 } }] });
    for (const amount of [0, -2, 1.5, 100001, '7'] as Json[]) expect(t.run({ type: 'encounter.damage', id: 'g1', amount })).toMatchObject({ code: 'INVALID_VALUE', path: 'amount' });
    expect(t.run({ type: 'encounter.heal', id: 'x', amount: 2 })).toMatchObject({ code: 'NO_HP', message: 'Fog has no hit points to change: give them HP first' });
    expect(t.run({ type: 'encounter.damage', id: 'nobody', amount: 2 })).toMatchObject({ code: 'NOT_FOUND', path: 'id' });
  });

  it('damage to a hidden foe is the GM’s alone: not in a player’s log or events', () => {
    const t = new Table([encounterModule(rules)]);
    t.ok({ type: 'encounter.start', combatants: [...roster, { id: 'lurk', name: 'CANARY-lurker', kind: 'npc', visibility: 'hidden', stats: { dex: 1, hp: 4 } }] });
    t.ok({ type: 'encounter.damage', id: 'lurk', amount: 4 });
    expect(texts(t).at(-1)).toBe('CANARY-lurker takes 4 damage (HP 4 → 0) and is defeated.');
    const json = JSON.stringify(t.engine.view(t.table, ann));
    expect(json).not.toContain('CANARY');
    expect(json).not.toContain('lurk');
  });

  it('property: any run of damage and healing keeps HP within [0, maxHp] and equals the clamped sum', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 30 })), { maxLength: 12 }), fc.integer({ min: 1, max: 40 }), (steps, max) => {
        const t = new Table([encounterModule(rules)]);
        t.ok({ type: 'encounter.start', combatants: [{ id: 'g', name: 'G', kind: 'npc', stats: { dex: 3, hp: max, maxHp: max } }] });
        let hp = max;
        for (const [hurt, n] of steps) {
          t.ok({ type: hurt ? 'encounter.damage' : 'encounter.heal', id: 'g', amount: n });
          hp = hurt ? Math.max(0, hp - n) : Math.min(max, hp + n);
          expect(t.enc.combatants['g']!.stats['hp']).toBe(hp);
        }
        expect(t.engine.replay(t.table.genesis, t.table.transactions).world).toEqual(t.world);
      }),
      { numRuns: 60 },
    );
  });
});

describe('conditions for the picker', () => {
  const withCatalogue: EncounterRules = { ...rules, conditions: [{ id: 'dazed', name: 'Dazed', stacking: 'refresh', effects: { 'attack.advantage': -1 } }] };

  it('every view carries the ruleset’s catalogue (ids and names) and whether saves end conditions', () => {
    const t = new Table([encounterModule(withCatalogue)]);
    t.ok({ type: 'encounter.start', combatants: roster });
    for (const v of [{ role: 'gm' } as Viewer, ann]) {
      const enc = t.engine.view(t.table, v).world.ext['encounter'] as unknown as { catalogue: unknown };
      expect(enc.catalogue).toEqual({ conditions: [{ id: 'dazed', name: 'Dazed', stacking: 'refresh' }], saveEnds: false });
    }
    // Never stored: only views carry it.
    expect((t.world.ext['encounter'] as { [k: string]: unknown })['catalogue']).toBeUndefined();
  });

  it('a condition of the GM’s own ("custom:Paralyzed") has a name and a duration but no rules effect, and runs out like any other', () => {
    const t = new Table([encounterModule(withCatalogue)]);
    t.ok({ type: 'encounter.start', combatants: roster });
    t.ok({ type: 'condition.apply', target: 'g1', condition: 'custom:Paralyzed', duration: { kind: 'rounds', rounds: 1 } });
    expect(Object.values(t.enc.conditions).map((c) => c.defId)).toEqual(['custom:Paralyzed']);
    expect(texts(t).at(-1)).toBe('Goblin 1: Paralyzed.');
    playRound(t);
    expect(Object.values(t.enc.conditions)).toEqual([]);
    expect(texts(t)).toContain('Goblin 1: Paralyzed ends.');
    expect(t.run({ type: 'condition.apply', target: 'g1', condition: 'custom:', duration: { kind: 'indefinite' } })).toMatchObject({ code: 'INVALID_VALUE', path: 'condition' });
    expect(t.run({ type: 'condition.apply', target: 'g1', condition: `custom:${'x'.repeat(41)}`, duration: { kind: 'indefinite' } })).toMatchObject({ code: 'INVALID_VALUE' });
    expect(t.run({ type: 'condition.apply', target: 'g1', condition: 'Paralyzed', duration: { kind: 'indefinite' } })).toMatchObject({ code: 'UNKNOWN_CONDITION' });
  });
});

describe('the log speaks in people’s units', () => {
  it('time passed reads as minutes, hours and days, never raw seconds', () => {
    expect(fictionTime(600)).toBe('10 minutes');
    expect(fictionTime(3600)).toBe('1 hour');
    expect(fictionTime(5400)).toBe('1 hour 30 minutes');
    expect(fictionTime(6)).toBe('6 seconds');
    expect(fictionTime(2 * 86400 + 4 * 3600)).toBe('2 days 4 hours');
    expect(fictionTime(0)).toBe('0 seconds');
  });
});
