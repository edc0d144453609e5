// The Edge Saves in the log (004 "Turn Order"; issue 20, review 10): each PC's
// dice, the Score needed and where the saves put them, for everyone; a phone
// reads the line without a hidden foe's group (renumbered as its turn order is).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fixedRng, getEncounter, scenario, seededRng, type Json, type Rng, type Scenario, type Viewer } from '@tablekeeper/engine';
import { countingIds } from '@tablekeeper/engine/testing';
import { ruleset } from '../../src/kleptonomicon/index.js';

const ANN: Viewer = { role: 'player', seatId: 'seat-1' };
const ALICE = 'ch-baaaaacaaaaa';

function table(rng: Rng, settings: { [k: string]: Json } = {}): Scenario {
  const s = scenario(ruleset.modules, { rng: countingIds(rng), rulesetId: 'kleptonomicon', settings });
  s.run({ type: 'seat.add', name: 'Ann' });
  s.run({ type: 'character.add', name: 'Alice', kind: 'pc', seatId: 'seat-1', stats: {} });
  expect(s.world.seats['seat-1']?.characterIds).toEqual([ALICE]);
  s.run({ type: 'kleptonomicon.startEpisode' });
  s.run({ type: 'kleptonomicon.freeplay' });
  return s;
}

const FOES = (hidden: boolean): Json[] => [
  { id: 'guard1', name: 'Guard', kind: 'npc', stats: { creatureType: 'guard', edgeSave: 2 } },
  { id: 'lurker1', name: 'Lurker', kind: 'npc', visibility: hidden ? 'hidden' : 'visible', stats: { creatureType: 'lurker', edgeSave: 1 } },
];
const ALICE_PC: Json = { id: 'c-alice', name: 'Alice', kind: 'pc', characterId: ALICE, stats: { edgeSave: 1 } };

const lines = (s: Scenario, viewer: Viewer): string[] => s.view(viewer).world.log.filter((l) => l.kind === 'kleptonomicon.edgeSaves').map((l) => l.text);
type Roll = { group: number; score: number; failed: boolean };
const placement = (s: Scenario): { slot: number; rolls: Roll[] } => getEncounter(s.world).combatants['c-alice']!.placement as unknown as { slot: number; rolls: Roll[] };

describe('Kleptonomicon: Edge Saves in the log', () => {
  it('the GM reads every save with its die and the Score needed; the phone never reads the hidden Lurker', () => {
    const s = table(seededRng(3));
    s.run({ type: 'encounter.start', combatants: [...FOES(true), ALICE_PC] });
    const p = placement(s);
    const [gm] = lines(s, { role: 'gm' });
    expect(gm).toMatch(/^Edge Saves for Alice \(a Score of 7 or more passes\): against foe group 1 \(Guard\) rolled d10 \d+.* = Score \d+, (passed|failed)/);
    // Each recorded Score is in the line, with its verdict.
    for (const r of p.rolls) expect(gm).toContain(`= Score ${r.score}, ${r.failed ? 'failed' : 'passed'}`);
    expect(p.rolls.every((r) => r.failed === r.score <= 6)).toBe(true);
    const phone = lines(s, ANN);
    expect(phone).toHaveLength(1);
    expect(phone[0]).not.toContain('Lurker');
    expect(phone[0]).not.toContain('foe group 2');
    expect(JSON.stringify(s.view(ANN))).not.toContain('Lurker');
    expect(JSON.stringify(s.view({ role: 'spectator' }))).not.toContain('Lurker');
  });

  it('with both groups in view, one line for everyone, naming where Alice acts', () => {
    // Fixed dice: 9 passes the first save; 2 fails the second (a Score at or below 6).
    const s = table(fixedRng([9, 2, ...Array.from({ length: 40 }, () => 5)]));
    s.run({ type: 'encounter.start', combatants: [...FOES(false), ALICE_PC] });
    const p = placement(s);
    const gm = lines(s, { role: 'gm' });
    expect(lines(s, ANN)).toEqual(gm);
    expect(gm).toHaveLength(1);
    const verdicts = p.rolls.map((r) => (r.failed ? 'failed' : 'passed'));
    const where = p.slot === 0 ? 'Alice acts before the foes.' : `Alice acts after foe group ${p.slot}.`;
    expect(gm[0]!.endsWith(where)).toBe(true);
    expect(gm[0]!.match(/passed|failed/g)).toEqual(verdicts);
  });

  it('a player who rolls their own Edge Saves has them logged when they roll', () => {
    const s = table(seededRng(5), { 'kleptonomicon.playersRollEdgeSaves': true });
    s.run({ type: 'encounter.start', combatants: [...FOES(false), ALICE_PC] });
    expect(lines(s, ANN)).toEqual([]);
    s.run({ type: 'encounter.choose', id: 'c-alice' }, ANN);
    expect(lines(s, ANN)).toHaveLength(1);
    expect(lines(s, ANN)[0]).toMatch(/^Edge Saves for Alice/);
  });

  it('a fail against the hidden group: the phone reads no Score and no line about it (review 12 #5)', () => {
    // 9 passes against the Guard's group; 2 fails against the hidden Lurker's (a Score at or below 6).
    const s = table(fixedRng([9, 2, ...Array.from({ length: 40 }, () => 5)]));
    s.run({ type: 'encounter.start', combatants: [...FOES(true), ALICE_PC] });
    const real = placement(s);
    expect(real.rolls.map((r) => r.failed)).toEqual([false, true]);
    const seen = getEncounter(s.view(ANN).world).combatants['c-alice']!.placement as { slot: number; score?: number; rolls: Roll[] };
    // The failing Score was against the Lurker: withheld, so the phone cannot show it as a pass.
    expect(seen.score).toBeUndefined();
    expect(seen.rolls.map((r) => r.failed)).toEqual([false]);
    expect(seen.slot).toBe(1);
    const phone = lines(s, ANN);
    expect(phone).toHaveLength(1);
    expect(phone[0]).toMatch(/against foe group 1 \(Guard\) rolled .*passed\.$/);
    expect(phone[0]).not.toMatch(/in view|failed|group 2/);
  });

  it('a fail against the only, hidden group: no Edge Save line and no Score reach the phone', () => {
    const s = table(fixedRng([2, ...Array.from({ length: 40 }, () => 5)]));
    s.run({ type: 'encounter.start', combatants: [{ ...(FOES(true)[1] as { [k: string]: Json }) }, ALICE_PC] });
    expect(placement(s).rolls.map((r) => r.failed)).toEqual([true]);
    expect(lines(s, { role: 'gm' })).toHaveLength(1);
    expect(lines(s, { role: 'gm' })[0]).toMatch(/against foe group 1 \(Lurker\).*failed\. Alice acts after foe group 1\.$/);
    expect(lines(s, ANN)).toEqual([]);
    const seen = getEncounter(s.view(ANN).world).combatants['c-alice']!.placement as { slot: number; score?: number };
    expect(seen).toEqual({ slot: 0, rolls: [] });
  });

  it('property: a phone never reads a hidden foe name in the Edge Save lines, whatever the dice', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.boolean(), (seed, hidden) => {
        const s = table(seededRng(seed));
        s.run({ type: 'encounter.start', combatants: [...FOES(hidden), ALICE_PC] });
        const gm = lines(s, { role: 'gm' });
        const phone = lines(s, ANN);
        expect(gm).toHaveLength(1);
        expect(gm[0]).toContain('Guard');
        const rolls = placement(s).rolls;
        // The Guard's group is in view and rolled first or second: the phone has a line unless the chain ended at a hidden Lurker with no Guard roll.
        expect(phone.length).toBeLessThanOrEqual(1);
        if (phone.length === 1) expect(phone[0]!.includes('Lurker')).toBe(!hidden && rolls.some((r) => r.group === 1));
        // A Score on the phone is always the one its last shown roll has, so a fail never reads as a pass.
        const seen = getEncounter(s.view(ANN).world).combatants['c-alice']!.placement as { score?: number; rolls: Roll[] };
        if (seen.score !== undefined) expect(seen.score).toBe(seen.rolls[seen.rolls.length - 1]?.score);
        if (!hidden) expect(seen.score).toBe(rolls[rolls.length - 1]!.score);
      }),
      { numRuns: 60 },
    );
  });
});

describe('Kleptonomicon: Edge Saves re-rolled each round (review 13 #11)', () => {
  /** Ends turns (choosing the first offered where the order asks) until `round` begins. */
  const toRound = (s: Scenario, round: number) => {
    for (let i = 0; i < 40 && getEncounter(s.world).round < round; i++) {
      const enc = getEncounter(s.world);
      s.run(enc.pending !== null ? { type: 'encounter.choose', id: enc.pending.options[0]! } : { type: 'encounter.endTurn' });
    }
    expect(getEncounter(s.world).round).toBe(round);
  };
  /** Bob joins Ann's seat; his combatant for the fight. */
  const withBob = (s: Scenario): Json => {
    s.run({ type: 'character.add', name: 'Bob', kind: 'pc', seatId: 'seat-1', stats: {} });
    const bob = Object.values(s.world.characters).find((c) => c.name === 'Bob')!.id;
    return { id: 'c-bob', name: 'Bob', kind: 'pc', characterId: bob, stats: { edgeSave: 0 } };
  };

  it("round 2's saves are logged for each PC, dice and Scores as the new placements hold them, in the new turn order", () => {
    const s = table(seededRng(11), { 'kleptonomicon.rerollEachRound': true });
    const bob = withBob(s);
    s.run({ type: 'encounter.start', combatants: [...FOES(false), ALICE_PC, bob] });
    expect(lines(s, { role: 'gm' })).toHaveLength(2);
    toRound(s, 2);
    const round2 = lines(s, { role: 'gm' }).slice(2);
    const enc = getEncounter(s.world);
    const pcs = enc.roster.filter((id) => enc.combatants[id]!.kind === 'pc');
    expect(round2.map((l) => /^Edge Saves for (\w+) for round 2 \(a Score of 7 or more passes\): /.exec(l)?.[1])).toEqual(pcs.map((id) => enc.combatants[id]!.name));
    for (const [i, id] of pcs.entries()) {
      const p = enc.combatants[id]!.placement as unknown as { slot: number; rolls: Roll[] };
      for (const r of p.rolls) expect(round2[i]).toContain(`= Score ${r.score}, ${r.failed ? 'failed' : 'passed'}`);
      expect(round2[i]!.endsWith(p.slot === 0 ? 'acts before the foes.' : `acts after foe group ${p.slot}.`)).toBe(true);
    }
    // The kernel's line comes first, then the saves that explain it; every round again.
    const texts = s.world.log.map((l) => l.text);
    expect(texts.indexOf('Initiative is rolled again for round 2: see the new order.')).toBeLessThan(texts.indexOf(round2[0]!));
    toRound(s, 3);
    expect(lines(s, { role: 'gm' }).filter((l) => l.includes('for round 3'))).toHaveLength(2);
    expect(lines(s, ANN)).toEqual(lines(s, { role: 'gm' }));
  });

  it('without the setting no round-2 line; with it, a hidden group stays off the phone in every round, whatever the dice', () => {
    const plain = table(seededRng(4));
    plain.run({ type: 'encounter.start', combatants: [...FOES(false), ALICE_PC] });
    toRound(plain, 2);
    expect(lines(plain, { role: 'gm' })).toHaveLength(1);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), (seed) => {
        const s = table(seededRng(seed), { 'kleptonomicon.rerollEachRound': true });
        s.run({ type: 'encounter.start', combatants: [...FOES(true), ALICE_PC] });
        toRound(s, 3);
        const gm = lines(s, { role: 'gm' });
        // One line per round for the GM (Alice rolls against the Guard's group at least, whatever the dice).
        expect(gm.filter((l) => l.includes('for round 2'))).toHaveLength(1);
        expect(gm.filter((l) => l.includes('for round 3'))).toHaveLength(1);
        const phone = lines(s, ANN);
        expect(phone.length).toBeLessThanOrEqual(3);
        for (const l of phone) expect(l).not.toMatch(/Lurker|group 2/);
        expect(JSON.stringify(s.view(ANN).world.log)).not.toContain('Lurker');
      }),
      { numRuns: 30 },
    );
  });
});
