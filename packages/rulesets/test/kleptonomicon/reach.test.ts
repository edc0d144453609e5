// An attack's reach in the Kleptonomicon (ADR 124; 004 "Distance": the melee
// Basic Attack reaches Swinging Distance 1u, the ranged Shooting 16u, the
// magic Throwing 8u; the sixth distance is the table's, unbounded "Seeing" by
// default). No map: a said distance is checked, an unsaid one is not.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fixedRng, foesModule, getEncounter, scenario, sheetModule, type Json, type Scenario, type Viewer } from '@tablekeeper/engine';
import { countingIds } from '@tablekeeper/engine/testing';
import { kleptoSheetModel, ruleset } from '../../src/kleptonomicon/index.js';
import { reachOf, reachRefusal } from '../../src/kleptonomicon/attack.js';
import { DEFAULT_SIXTH_DISTANCE, NAMED_DISTANCES, beyondReach, distances, type Distance } from '../../src/kleptonomicon/distances.js';

const ANN: Viewer = { role: 'player', seatId: 'seat-1' };
const GM: Viewer = { role: 'gm' };
const ALICE = 'ch-baaaaacaaaaa';

/** Alice (Ann's, Basic Attack +1 / 1d6+1, her sheet's abilities; Edge Save 9, then every die a 6) against a Guard with Defense 7; `sixth` sets the table's sixth distance. */
function fight(abilities: Json[] = [], sixth?: Json, more: { [k: string]: Json } = {}): Scenario {
  const rng = fixedRng([9, ...Array.from({ length: 40 }, () => 6)]);
  const s = scenario([...ruleset.modules, sheetModule(kleptoSheetModel), foesModule], { rng: countingIds(rng), rulesetId: 'kleptonomicon', ...(sixth === undefined ? {} : { settings: { 'kleptonomicon.sixthDistance': sixth } }) });
  s.run({ type: 'seat.add', name: 'Ann' });
  s.run({ type: 'character.add', name: 'Alice', kind: 'pc', seatId: 'seat-1', stats: { edgeSave: 0, attackModifier: 1, attackDamage: '1d6+1', hp: 20, ...more } });
  if (abilities.length > 0) s.run({ type: 'character.sheet.set', characterId: ALICE, sheet: { abilities }, patch: true });
  s.run({ type: 'kleptonomicon.startEpisode' });
  s.run({ type: 'kleptonomicon.freeplay' });
  s.run({ type: 'encounter.start', combatants: [{ id: 'guard', name: 'Guard', kind: 'npc', stats: { creatureType: 'guard', edgeSave: 0, defense: 7, hp: 30 } }, { id: 'c-alice', name: 'Alice', kind: 'pc', characterId: ALICE }] });
  expect(getEncounter(s.world).current).toBe('c-alice');
  return s;
}

const attack = (args: { [k: string]: Json }) => ({ type: 'kleptonomicon.attack', attackerId: 'c-alice', targetId: 'guard', ...args }) as const;
const beats = (s: Scenario) => getEncounter(s.world).economy['c-alice']?.spent['beats'] ?? 0;
const odds = (s: Scenario, args: { [k: string]: Json }, viewer: Viewer = GM) => s.engine.query(s.table, viewer, 'kleptonomicon.attackOdds', { attackerId: 'c-alice', targetId: 'guard', ...args });
const FAR: Distance = { id: 'far', name: 'Far Distance', units: 40 };

describe("the Basic Attacks' reach (004 \"Distance\")", () => {
  it('melee reaches Swinging Distance (1u), ranged Shooting Distance (16u), magic Throwing Distance (8u)', () => {
    const at = (k: 'melee' | 'ranged' | 'magic') => reachOf(null, k, DEFAULT_SIXTH_DISTANCE);
    expect(at('melee')).toEqual({ by: 'a melee attack', distance: { id: 'swinging', name: 'Swinging Distance', units: 1 } });
    expect(at('ranged')).toEqual({ by: 'a ranged attack', distance: { id: 'shooting', name: 'Shooting Distance', units: 16 } });
    expect(at('magic')).toEqual({ by: 'a magic attack', distance: { id: 'throwing', name: 'Throwing Distance', units: 8 } });
  });

  it("a melee attack at a target said to be at Throwing Distance is refused in words naming both, before a Beat or a die; the log keeps nothing", () => {
    const s = fight();
    const lines = s.world.log.length;
    const e = s.fail(attack({ distance: 'throwing' }), ANN);
    expect(e).toEqual({ code: 'OUT_OF_REACH', message: 'Guard is at Throwing Distance (8u); a melee attack reaches Swinging Distance (1u)', path: 'distance' });
    expect(beats(s)).toBe(0);
    expect(s.world.log.length).toBe(lines);
  });

  it('units are checked against the reach too: 2u is past a melee attack, and the refusal says "2u away"', () => {
    const s = fight();
    expect(s.fail(attack({ units: 2 }), ANN)).toMatchObject({ code: 'OUT_OF_REACH', message: 'Guard is 2u away; a melee attack reaches Swinging Distance (1u)', path: 'units' });
    expect(s.fail(attack({ units: 2, distance: 'swinging' }), ANN)).toMatchObject({ code: 'INVALID_VALUE', path: 'units' });
  });

  it('a ranged attack at Throwing Distance is made, and its log line names the distance: d10 6 +1 = 7 vs Defense 7, a hit', () => {
    const s = fight();
    const tx = s.run(attack({ basic: 'ranged', distance: 'throwing' }), ANN);
    const ev = tx.kind === 'command' ? tx.events.find((x) => x.type === 'kleptonomicon.attackRolled') : undefined;
    expect(ev).toMatchObject({ hit: true, distance: 'Throwing Distance (8u)' });
    expect(s.world.log.map((l) => l.text).some((t) => t.startsWith("Alice's Basic Attack on Guard at Throwing Distance (8u): d10 6 +1 = Score 7 vs Defense 7 (hit"))).toBe(true);
  });

  it('an unsaid distance is not checked (no map); the log line then names none', () => {
    const s = fight();
    s.run(attack({}), ANN);
    expect(s.world.log.map((l) => l.text).some((t) => t.startsWith("Alice's Basic Attack on Guard: d10 6"))).toBe(true);
  });

  it("the sheet's Basic Attack kind is the default: a magic attacker at Shooting Distance is refused as a magic attack, and the form offers magic first", () => {
    const s = fight([], undefined, { attackKind: 'magic' });
    expect(s.fail(attack({ distance: 'shooting' }), ANN).message).toBe('Guard is at Shooting Distance (16u); a magic attack reaches Throwing Distance (8u)');
    const r = s.engine.query(s.table, ANN, 'kleptonomicon.actions', { combatantId: 'c-alice' });
    if (!r.ok) throw new Error(r.error.message);
    const basic = (r.value as { actions: { id: string; choices: { field: string; options: { value: string; label: string }[] }[] }[] }).actions.find((a) => a.id === 'attack')!;
    expect(basic.choices.find((c) => c.field === 'basic')!.options.map((o) => o.label)).toEqual(['Magic, reaches Throwing Distance (8u)', 'Melee, reaches Swinging Distance (1u)', 'Ranged, reaches Shooting Distance (16u)']);
    expect(basic.choices.find((c) => c.field === 'distance')!.options.map((o) => o.label)).toEqual(['not said (no reach check)', 'Swinging Distance (1u)', 'Spearing Distance (2u)', 'Spitting Distance (4u)', 'Throwing Distance (8u)', 'Shooting Distance (16u)', 'Seeing Distance (past 16u)']);
  });

  it("the sheet editor sets the kind: its log line says so, and an attack without `basic` then reaches as a ranged one", () => {
    const s = fight();
    s.run({ type: 'character.sheet.set', characterId: ALICE, sheet: { attackKind: 'ranged' }, patch: true });
    expect(s.world.log.at(-1)?.text).toContain('ranged Basic Attack');
    expect(s.fail(attack({ distance: 'seeing' }), ANN).message).toBe('Guard is at Seeing Distance (past 16u); a ranged attack reaches Shooting Distance (16u)');
    expect(s.fail({ type: 'character.sheet.set', characterId: ALICE, sheet: { attackKind: 'thrown' }, patch: true }).path).toContain('attackKind');
  });

  it('the improvised maneuver reaches as the Basic Attack it builds on: melee stops at Swinging, ranged takes Shooting', () => {
    const s = fight();
    expect(s.fail(attack({ maneuver: true, distance: 'spearing' }), ANN).message).toBe('Guard is at Spearing Distance (2u); a melee attack reaches Swinging Distance (1u)');
    s.run(attack({ maneuver: true, basic: 'ranged', distance: 'shooting' }), ANN);
    expect(s.world.log.map((l) => l.text).some((t) => t.startsWith("Alice's improvised maneuver on Guard at Shooting Distance (16u):"))).toBe(true);
  });
});

describe("an ability's own reach", () => {
  const bolt = { name: 'Fire Bolt', time: 'beat', attack: true, modifier: 2, damage: '1d8', reach: 'spitting' };
  const jab = { name: 'Jab', time: 'beat', attack: true, modifier: 0 };

  it('Fire Bolt (Spitting Distance) takes a target at Spearing Distance and refuses one 5u away; its form shows the reach', () => {
    const s = fight([bolt]);
    expect(s.fail(attack({ abilityId: 'fire-bolt', units: 5 }), ANN).message).toBe('Guard is 5u away; Fire Bolt reaches Spitting Distance (4u)');
    s.run(attack({ abilityId: 'fire-bolt', distance: 'spearing' }), ANN);
    expect(s.world.log.map((l) => l.text).some((t) => t.startsWith("Alice's Fire Bolt on Guard at Spearing Distance (2u):"))).toBe(true);
  });

  it('an attacking ability that names no reach reaches Swinging Distance; an ability is never melee, ranged or magic', () => {
    const s = fight([jab]);
    expect(s.fail(attack({ abilityId: 'jab', distance: 'spearing' }), ANN).message).toBe('Guard is at Spearing Distance (2u); Jab reaches Swinging Distance (1u)');
    expect(s.fail(attack({ abilityId: 'jab', basic: 'ranged' }), ANN)).toMatchObject({ code: 'INVALID_VALUE', path: 'basic' });
  });

  it("a sheet naming a reach the table lacks is refused where it is written", () => {
    const s = fight();
    const e = s.fail({ type: 'character.sheet.set', characterId: ALICE, sheet: { abilities: [{ ...bolt, reach: 'yonder' }] }, patch: true });
    expect(e).toMatchObject({ code: 'INVALID_VALUE', path: 'sheet.abilities.0.reach' });
    expect(e.message).toContain('"yonder" is none of this table\'s distances (swinging, spearing, spitting, throwing, shooting, seeing)');
  });
});

describe('the sixth distance is the table\'s', () => {
  it('unbounded by default: a Seeing reach takes anything, and anything else refuses a target at Seeing Distance', () => {
    const s = fight([{ name: 'Far Gaze', time: 'beat', attack: true, reach: 'seeing' }]);
    expect(s.fail(attack({ basic: 'ranged', distance: 'seeing' }), ANN).message).toBe('Guard is at Seeing Distance (past 16u); a ranged attack reaches Shooting Distance (16u)');
    expect(odds(s, { abilityId: 'far-gaze', units: 1000 }).ok).toBe(true);
    expect(odds(s, { abilityId: 'far-gaze', distance: 'seeing' }).ok).toBe(true);
  });

  it('set by the table (Far Distance, 40u): its key is what a reach and a said distance name, and 41u is past it', () => {
    const s = fight([{ name: 'Far Gaze', time: 'beat', attack: true, reach: 'far' }], { ...FAR });
    expect(odds(s, { abilityId: 'far-gaze', distance: 'far' }).ok).toBe(true);
    const past = odds(s, { abilityId: 'far-gaze', units: 41 });
    expect(past.ok ? null : past.error.message).toBe('out of reach: Guard is 41u away; Far Gaze reaches Far Distance (40u)');
    expect(s.fail(attack({ distance: 'seeing' }), ANN)).toMatchObject({ code: 'INVALID_VALUE', path: 'distance', message: 'no distance "seeing" at this table: one of swinging, spearing, spitting, throwing, shooting, far' });
  });
});

describe('the attack odds and reach (declarations.ts)', () => {
  it('the chance is the same with an in-reach distance as without; out of reach answers "out of reach" instead of a chance', () => {
    const s = fight();
    const plain = odds(s, {});
    const near = odds(s, { distance: 'swinging' });
    expect(plain.ok && near.ok).toBe(true);
    expect(near).toEqual(plain);
    // Hand check: +1 vs Defense 7 needs a die of 6+: faces 6-9 at 2/20 each and the critical 10 at 1/20 = 9/20.
    expect(plain.ok ? (plain.value as { pass: number }).pass : null).toBeCloseTo(9 / 20, 12);
    const far = odds(s, { distance: 'spearing' }, ANN);
    expect(far.ok ? null : far.error).toEqual({ code: 'OUT_OF_REACH', message: 'out of reach: Guard is at Spearing Distance (2u); a melee attack reaches Swinging Distance (1u)', path: 'distance' });
  });
});

describe('property: an attack is refused exactly when a said distance is beyond its reach', () => {
  // The sixth: the default unbounded one, or a table's bounded one of 17-1000u.
  const sixthArb = fc.oneof(fc.constant(DEFAULT_SIXTH_DISTANCE), fc.integer({ min: 17, max: 1000 }).map((u): Distance => ({ id: 'far', name: 'Far Distance', units: u })));

  it('for any of the six reaches, any of the six distances said (by order: refused iff said after the reach) and any units', () => {
    fc.assert(
      fc.property(sixthArb, fc.integer({ min: 0, max: 5 }), fc.oneof(fc.integer({ min: 0, max: 5 }).map((i) => ({ index: i })), fc.integer({ min: 0, max: 1000 }).map((u) => ({ units: u }))), (sixth, reachIndex, said) => {
        const six = distances(sixth);
        const reach = six[reachIndex]!;
        const s = fight([{ name: 'Strike', time: 'beat', attack: true, reach: reach.id }], sixth === DEFAULT_SIXTH_DISTANCE ? undefined : { ...sixth });
        const args: { [k: string]: Json } = 'index' in said ? { abilityId: 'strike', distance: six[said.index]!.id } : { abilityId: 'strike', units: said.units };
        const r = odds(s, args);
        // The oracle: distances are ordered, so a named one is past the reach iff it comes after it; units against the reach's units.
        const refused = 'index' in said ? said.index > reachIndex : reach.units !== null && said.units > reach.units;
        expect(r.ok).toBe(!refused);
        if (!r.ok) expect(r.error.code).toBe('OUT_OF_REACH');
      }),
      { numRuns: 60 },
    );
  });

  it('the pure check agrees with the order of the six for every pair (whatever the sixth)', () => {
    fc.assert(
      fc.property(sixthArb, (sixth) => {
        const six = distances(sixth);
        for (let r = 0; r < six.length; r++) for (let d = 0; d < six.length; d++) expect(beyondReach({ distance: six[d]! }, six[r]!)).toBe(d > r);
        // Every named distance reaches itself: its refusal is null.
        for (const d of NAMED_DISTANCES) expect(reachRefusal('Guard', { distance: d }, { by: 'x', distance: d })).toBeNull();
      }),
    );
  });
});
