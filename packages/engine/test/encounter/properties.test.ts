// fast-check properties of the encounter kernel.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Json } from '../../src/core/types.js';
import { seededRng } from '../../src/dice/rng.js';
import { bandsSequencer, BANDS } from '../../src/encounter/sequencers/bands.js';
import { scoreSequencer } from '../../src/encounter/sequencers/score.js';
import { teamsSequencer } from '../../src/encounter/sequencers/teams.js';
import { edgeSaveSequencer } from '../../src/encounter/sequencers/edge-save.js';
import { BANDS_ECONOMY, BEATS_ECONOMY, OSR_ECONOMY, TEAMS_ECONOMY } from '../../src/encounter/economies.js';
import { encounterModule } from '../../src/encounter/module.js';
import type { ConditionDef, EncounterRules } from '../../src/encounter/types.js';
import { Table } from './harness.js';

const DEFS: ConditionDef[] = [
  { id: 'dazed', name: 'Dazed', stacking: 'refresh', effects: { 'attack.advantage': -1 } },
  { id: 'slowed', name: 'Slowed', stacking: 'stack', effects: { 'movement.penalty': 1 }, effectsScaleWithStacks: true, fleeting: true },
];

type System = 'score' | 'bands' | 'teams' | 'edge';
function rulesFor(system: System): EncounterRules {
  switch (system) {
    case 'score':
      return { sequencer: scoreSequencer(), economy: OSR_ECONOMY, conditions: DEFS };
    case 'bands':
      return { sequencer: bandsSequencer(), economy: BANDS_ECONOMY, conditions: DEFS, saveRoll: (_w, _i, rng) => ({ success: rng.die(20) >= 11, roll: null }) };
    case 'teams':
      return { sequencer: teamsSequencer(), economy: TEAMS_ECONOMY, conditions: DEFS };
    case 'edge':
      return { sequencer: edgeSaveSequencer({ roll: (rng, o) => ({ score: rng.die(10) + o.modifier }), ties: 'choice' }), economy: BEATS_ECONOMY, conditions: DEFS };
  }
}

const arbRoster = fc.array(
  fc.record({ pc: fc.boolean(), dex: fc.integer({ min: 3, max: 18 }), band: fc.constantFrom(...BANDS), team: fc.constantFrom('a', 'b', 'c'), type: fc.constantFrom('wolf', 'orc', 'bat') }),
  { minLength: 2, maxLength: 9 },
);

function start(system: System, roster: { pc: boolean; dex: number; band: string; team: string; type: string }[], seed: number): Table | null {
  const t = new Table([encounterModule(rulesFor(system))], seededRng(seed));
  const combatants: Json[] = roster.map((r, i) => ({
    id: `c${i}`,
    kind: r.pc ? 'pc' : 'npc',
    side: system === 'teams' ? r.team : r.pc ? 'pcs' : 'npcs',
    band: r.band,
    stats: { dex: r.dex, edgeSave: r.dex - 10, creatureType: r.type },
  }));
  const teams = [...new Set(roster.map((r) => r.team))];
  const err = t.run({ type: 'encounter.start', combatants, params: system === 'teams' ? { teamOrder: teams } : { groups: groupsFor(roster) } });
  return err === null ? t : null;
}

/** Two to four NPC groups when possible (edge-save needs them); other systems ignore params. */
function groupsFor(roster: { pc: boolean }[]): Json {
  const npcs = roster.map((r, i) => (r.pc ? null : `c${i}`)).filter((x): x is string => x !== null);
  if (npcs.length <= 1) return npcs.length === 0 ? [] : [npcs];
  const g = Math.min(4, npcs.length);
  return Array.from({ length: g }, (_, k) => npcs.filter((_, i) => i % g === k));
}

/** Play until the round changes, answering decisions with `picks`; returns who took turns. */
function round(t: Table, picks: number[], ops?: (t: Table, step: number) => void): string[] {
  const r = t.enc.round;
  const who: string[] = [];
  for (let step = 0; step < 200 && t.enc.round === r; step++) {
    ops?.(t, step);
    if (t.enc.round !== r) break;
    if (t.enc.pending !== null) {
      const o = t.enc.pending.options;
      t.ok({ type: 'encounter.choose', id: o[(picks[step % Math.max(1, picks.length)] ?? 0) % o.length]! });
    } else if (t.enc.current !== null) {
      who.push(t.enc.current);
      t.ok({ type: 'encounter.endTurn' });
    } else break; // stalled: nobody able
  }
  return who;
}

describe('turn order properties', () => {
  for (const system of ['score', 'bands', 'teams', 'edge'] as const) {
    it(`${system}: every able combatant acts exactly once per round, whatever the choices`, () => {
      fc.assert(
        fc.property(arbRoster, fc.array(fc.nat(8), { maxLength: 12 }), fc.nat(), (roster, picks, seed) => {
          const t = start(system, roster, seed);
          if (t === null) throw new Error("start failed"); // the generated rosters are always valid
          for (let k = 0; k < 3; k++) {
            const who = round(t, picks);
            expect([...who].sort()).toEqual([...t.enc.roster].sort().filter((id) => who.includes(id)));
            expect(new Set(who).size).toBe(who.length);
            expect(who.length).toBe(roster.length);
          }
        }),
        { numRuns: 60 },
      );
    });
  }

  it('teams: with knock-outs and revivals mid-round, nobody acts twice and everyone able when the round ends has acted', () => {
    fc.assert(
      fc.property(arbRoster, fc.array(fc.tuple(fc.nat(8), fc.boolean()), { maxLength: 20 }), fc.nat(), (roster, toggles, seed) => {
        const t = start('teams', roster, seed);
        if (t === null) throw new Error("start failed");
        for (let k = 0; k < 3; k++) {
          const r = t.enc.round;
          const who = round(t, [0], (tt, step) => {
            const tog = toggles[step];
            if (tog === undefined) return;
            const id = `c${tog[0] % roster.length}`;
            tt.ok({ type: 'encounter.setIncapacitated', id, value: tog[1] });
          });
          expect(new Set(who).size).toBe(who.length);
          if (t.enc.round === r) break; // stalled: nobody able
          const ableAtEnd = roster.map((_, i) => `c${i}`).filter((id) => !t.enc.combatants[id]!.incapacitated);
          // Able now and able at the end of the round they just finished (no toggles happen between).
          for (const id of ableAtEnd) expect(who).toContain(id);
        }
      }),
      { numRuns: 80 },
    );
  });
});

describe('lost turns in ranked orders', () => {
  it('bands: with knock-outs and revivals, nobody acts twice and anyone able all round acts exactly once', () => {
    fc.assert(
      fc.property(arbRoster, fc.array(fc.tuple(fc.nat(8), fc.boolean()), { maxLength: 20 }), fc.nat(), (roster, toggles, seed) => {
        const t = start('bands', roster, seed);
        if (t === null) throw new Error('start failed');
        const r = t.enc.round;
        const everUnable = new Set<string>();
        const who = round(t, [0], (tt, step) => {
          const tog = toggles[step];
          if (tog === undefined) return;
          const id = `c${tog[0] % roster.length}`;
          if (tog[1]) everUnable.add(id);
          tt.ok({ type: 'encounter.setIncapacitated', id, value: tog[1] });
        });
        expect(new Set(who).size).toBe(who.length);
        if (t.enc.round === r) return; // stalled: everyone unable at once
        for (const id of roster.map((_, i) => `c${i}`)) if (!everUnable.has(id)) expect(who).toContain(id);
      }),
      { numRuns: 100 },
    );
  });
});

describe('undo and replay properties', () => {
  const arbOps = fc.array(
    fc.oneof(
      fc.constant({ op: 'end' as const }),
      fc.record({ op: fc.constant('spend' as const), who: fc.nat(8), kind: fc.constantFrom('standard', 'move', 'quick', 'interrupt') }),
      fc.record({ op: fc.constant('cond' as const), who: fc.nat(8), of: fc.nat(8), def: fc.constantFrom('dazed', 'slowed'), dur: fc.constantFrom('turnEnd', 'turnStart', 'rounds', 'saveEnds', 'indefinite') }),
      fc.record({ op: fc.constant('offset' as const), by: fc.integer({ min: -2, max: 2 }) }),
    ),
    { maxLength: 30 },
  );

  function drive(t: Table, n: number, ops: { op: string; who?: number; of?: number; kind?: string; def?: string; dur?: string; by?: number }[]): void {
    for (const o of ops) {
      if (t.enc.pending !== null) t.ok({ type: 'encounter.choose', id: t.enc.pending.options[0]! });
      const id = `c${(o.who ?? 0) % n}`;
      const of = `c${(o.of ?? 0) % n}`;
      if (o.op === 'end' && t.enc.current !== null) t.ok({ type: 'encounter.endTurn' });
      if (o.op === 'spend') t.run({ type: 'encounter.spend', combatant: id, kind: o.kind! });
      if (o.op === 'offset') t.ok({ type: 'encounter.escalationOffset', offset: o.by! });
      if (o.op === 'cond') {
        const duration: Json = o.dur === 'rounds' ? { kind: 'rounds', rounds: 2 } : o.dur === 'turnEnd' || o.dur === 'turnStart' ? { kind: o.dur, of } : { kind: o.dur! };
        t.ok({ type: 'condition.apply', target: id, condition: o.def!, duration });
      }
    }
    if (t.enc.pending !== null) t.ok({ type: 'encounter.choose', id: t.enc.pending.options[0]! });
  }

  it('undo of an end-turn restores durations, stacks, economy and the escalation die; redo (next turn) brings the same world back', () => {
    fc.assert(
      fc.property(arbRoster, arbOps, fc.nat(), (roster, ops, seed) => {
        const t = start('bands', roster, seed);
        if (t === null) throw new Error("start failed");
        drive(t, roster.length, ops);
        if (t.enc.current === null) return;
        const before = JSON.stringify(t.world);
        t.ok({ type: 'encounter.endTurn' });
        const after = JSON.stringify(t.world);
        const undone = t.undo();
        expect(JSON.stringify(t.world)).toBe(before);
        t.redo(undone);
        expect(JSON.stringify(t.world)).toBe(after);
      }),
      { numRuns: 100 },
    );
  });

  for (const anchorKind of ['turnEnd', 'turnStart'] as const) it(`a ${anchorKind} duration anchored to a combatant ends exactly at that combatant's next ${anchorKind === 'turnEnd' ? 'turn end' : 'turn start'}`, () => {
    fc.assert(
      fc.property(arbRoster, fc.nat(8), fc.nat(8), fc.nat(20), fc.nat(), (roster, who, of, wait, seed) => {
        const n = roster.length;
        const t = start('bands', roster, seed);
        if (t === null) throw new Error("start failed");
        const anchor = `c${of % n}`;
        for (let i = 0; i < wait % (2 * n); i++) {
          if (t.enc.pending !== null) t.ok({ type: 'encounter.choose', id: t.enc.pending.options[0]! });
          else t.ok({ type: 'encounter.endTurn' });
        }
        if (t.enc.pending !== null) t.ok({ type: 'encounter.choose', id: t.enc.pending.options[0]! });
        const anchorInTurn = t.enc.current === anchor;
        t.ok({ type: 'condition.apply', target: `c${who % n}`, condition: 'dazed', duration: { kind: anchorKind, of: anchor } });
        let anchorEnds = 0;
        for (let step = 0; step < 10 * n && Object.keys(t.enc.conditions).length > 0; step++) {
          if (t.enc.pending !== null) {
            t.ok({ type: 'encounter.choose', id: t.enc.pending.options[0]! });
            continue;
          }
          const ending = t.enc.current;
          const ev = t.ok({ type: 'encounter.endTurn' });
          const expired = ev.some((e) => e.type === 'condition.expired');
          // The moment that counts: the anchor's turn ending (turnEnd) or the next actor's turn starting (turnStart).
          const started = ev.filter((e) => e.type === 'encounter.turnStarted').map((e) => e['id']);
          const hit = anchorKind === 'turnEnd' ? ending === anchor : started.includes(anchor);
          if (hit) anchorEnds++;
          // It expires in that transaction, and only then ("next" turn: a turn already under way does not count).
          expect(expired).toBe(hit && anchorEnds === (anchorKind === 'turnEnd' && anchorInTurn ? 2 : 1));
        }
        expect(Object.keys(t.enc.conditions)).toHaveLength(0);
      }),
      { numRuns: 100 },
    );
  });
});
