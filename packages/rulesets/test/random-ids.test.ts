// Random ids everywhere the engine or a ruleset mints one (ADR 18): combatants
// the GM adds without an id, condition instances, teams attacks, 36th Way
// provocations and Daggerheart roll requests. Each id comes from the Rng's id
// stream, is recorded in its event (so replay never draws) and cannot be
// guessed from another; ids chosen by the GM and stored sequential ids still work.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getEncounter, scenario, seededRng, type Json, type Transaction } from '@tablekeeper/engine';
import { countingIds } from '@tablekeeper/engine/testing';
import { ruleset as osr } from '../src/osr/index.js';
import { DhTable, ofType } from './daggerheart/helpers.js';
import { events, fight as tswFight } from './36th-way/setup.js';
import { boudica, enemy, fight as teamsFight, lastOf, sheetFor, shortbow, table as teamsTable, turnTo } from './teams/helpers.js';

const RANDOM = (prefix: string): RegExp => new RegExp(`^${prefix}-[a-z]{12}$`);
const eventsOf = (tx: Transaction): readonly { readonly [k: string]: Json | undefined; readonly type: string }[] => (tx.kind === 'command' ? tx.events : []);
const replayed = (s: ReturnType<typeof scenario>): string => JSON.stringify(s.engine.replay(s.table.genesis, JSON.parse(JSON.stringify(s.table.transactions)) as Transaction[]).world);

function osrTable(seed = 1) {
  const s = scenario(osr.modules, { rng: countingIds(seededRng(seed)), rulesetId: 'osr' });
  const pc = String(eventsOf(s.run({ type: 'character.add', name: 'Mara', kind: 'pc', stats: { hp: 8 } }))[0]!['id']);
  return { s, pc };
}

describe('combatants without an id', () => {
  it("a linked combatant takes its character's id and name; an unlinked one gets a random id recorded in encounter.started", () => {
    const { s, pc } = osrTable();
    const tx = s.run({ type: 'encounter.start', combatants: [{ kind: 'pc', characterId: pc, score: 10 }, { kind: 'npc', name: 'Ghoul', score: 10 }] });
    const listed = eventsOf(tx)[0]!['combatants'] as { id: string; name: string }[];
    expect(listed[0]).toMatchObject({ id: pc, name: 'Mara' });
    expect(listed[1]!.id).toMatch(RANDOM('cb'));
    expect(listed[1]!.name).toBe('Ghoul');
    expect(getEncounter(s.world).roster).toEqual([pc, listed[1]!.id]);
    expect(replayed(s)).toBe(JSON.stringify(s.world));
  });

  it('encounter.add mints one too, and an id the GM chooses is still taken as given', () => {
    const { s, pc } = osrTable();
    s.run({ type: 'encounter.start', combatants: [{ id: 'orc', kind: 'npc', score: 10 }, { kind: 'pc', characterId: pc, score: 10 }] });
    const added = eventsOf(s.run({ type: 'encounter.add', combatant: { kind: 'npc', name: 'Rat', score: 10 } }))[0]!['combatant'] as { id: string };
    expect(added.id).toMatch(RANDOM('cb'));
    expect(getEncounter(s.world).roster).toEqual(['orc', pc, added.id]);
    expect(replayed(s)).toBe(JSON.stringify(s.world));
  });

  it('two unlinked combatants for the same character are refused as a duplicate, not merged', () => {
    const { s, pc } = osrTable();
    expect(s.fail({ type: 'encounter.start', combatants: [{ kind: 'pc', characterId: pc, score: 10 }, { kind: 'pc', characterId: pc, score: 10 }] }).code).toBe('DUPLICATE_COMBATANT');
  });

  it('property: for any seed, ten minted combatant ids are distinct, random-shaped and replay exactly', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), (seed) => {
        const s = scenario(osr.modules, { rng: seededRng(seed), rulesetId: 'osr' });
        s.run({ type: 'encounter.start', combatants: [{ kind: 'npc', name: 'First', score: 10 }] });
        for (let i = 0; i < 9; i++) s.run({ type: 'encounter.add', combatant: { kind: 'npc', name: `Foe ${i}`, score: 10 } });
        const roster = getEncounter(s.world).roster;
        expect(new Set(roster).size).toBe(10);
        for (const id of roster) expect(id).toMatch(RANDOM('cb'));
        expect(replayed(s)).toBe(JSON.stringify(s.world));
      }),
      { numRuns: 30 },
    );
  });
});

describe('condition instances', () => {
  it('get random ids from the id stream, recorded in condition.applied', () => {
    const { s } = osrTable();
    s.run({ type: 'encounter.start', combatants: [{ id: 'a', kind: 'npc', score: 10 }, { id: 'b', kind: 'npc', score: 10 }] });
    const first = eventsOf(s.run({ type: 'condition.apply', target: 'a', condition: 'custom:Dazed', duration: { kind: 'indefinite' } }))[0]!;
    const second = eventsOf(s.run({ type: 'condition.apply', target: 'b', condition: 'custom:Dazed', duration: { kind: 'indefinite' } }))[0]!;
    expect(first['id']).toMatch(RANDOM('cond'));
    expect(second['id']).toMatch(RANDOM('cond'));
    expect(first['id']).not.toBe(second['id']);
    expect(Object.keys(getEncounter(s.world).conditions).sort()).toEqual([first['id'], second['id']].sort());
    expect(replayed(s)).toBe(JSON.stringify(s.world));
  });

  it('a stored sequential id (cond7) still replays and moves the mint counter past it, as before', () => {
    const { s } = osrTable();
    s.run({ type: 'encounter.start', combatants: [{ id: 'a', kind: 'npc', score: 10 }] });
    const before = s.world.nextId;
    const w = s.engine.evolve(s.world, { type: 'condition.applied', id: 'cond7', condition: 'custom:Dazed', target: 'a', source: null, stacks: 1, duration: { kind: 'indefinite' }, params: null, round: 1 });
    expect(Object.keys(getEncounter(w).conditions)).toEqual(['cond7']);
    expect(w.nextId).toBe(Math.max(before, 8));
  });
});

describe('ruleset ids', () => {
  it('teams: a pending attack has a random id, and defending by it works', () => {
    const t = teamsTable();
    sheetFor(t.s, 'boudica', boudica);
    sheetFor(t.s, 'agnessa', { name: 'Agnessa', attributes: { dexterity: 6 }, skills: { combat: 4 }, maxStamina: 2, items: { bow: { weapon: shortbow } } });
    sheetFor(t.s, 'brute', enemy({ name: 'Brute', maxStamina: 3 }));
    teamsFight(t.s, ['boudica', 'agnessa'], ['brute']);
    turnTo(t.s, 'agnessa');
    t.dice.push(5, 4, 10);
    t.s.run({ type: 'teams.attack', attacker: 'agnessa', target: 'brute', weapon: 'bow' });
    const id = String(lastOf(t.s, 'teams.attacked')['id']);
    expect(id).toMatch(RANDOM('attack'));
    t.s.run({ type: 'teams.defend', attack: id, reaction: 'none' });
  });

  it('36th Way: each provocation has its own random id, and an opportunity attack names it', () => {
    const t = tswFight({}, { orc: { abilities: [{ id: 'howl', frequency: 'at-will', action: 'quick', provokes: true }, { id: 'roar', frequency: 'at-will', action: 'move', provokes: true }] } });
    t.s.run({ type: 'encounter.endTurn' });
    const p1 = events(t.s.run({ type: '36th-way.useAbility', who: 'orc', ability: 'howl' }), '36th-way.provoked')[0]!;
    const p2 = events(t.s.run({ type: '36th-way.useAbility', who: 'orc', ability: 'roar' }), '36th-way.provoked')[0]!;
    expect(p1['provocationId']).toMatch(RANDOM('prov'));
    expect(p2['provocationId']).toMatch(RANDOM('prov'));
    expect(p2['provocationId']).not.toBe(p1['provocationId']);
    t.dice.push(1, 1, 2);
    t.s.run({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], opportunity: p1['provocationId'] ?? null });
  });

  it('Daggerheart: a roll request has a random id', () => {
    const t = new DhTable();
    const seat = t.seat('Ana');
    const rogue = t.pc('Rogue', seat, { agility: 2 });
    const req = ofType(t.run({ type: 'daggerheart.requestRoll', characterId: rogue, trait: 'agility', difficulty: 12 }), 'daggerheart.rollRequested')[0]!['request'] as { id: string };
    expect(req.id).toMatch(RANDOM('req'));
  });
});
