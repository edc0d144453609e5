// The kernel on the core engine: the one clock, log entries with the right
// audiences, and player views that cannot count hidden combatants' turns.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Json, Viewer, World } from '../../src/core/types.js';
import { fixedRng, seededRng } from '../../src/dice/rng.js';
import { kleptoEdgeSave } from '../../src/encounter/sequencers/edge-save.js';
import { kleptonomiconEncounter } from '../../src/encounter/systems.js';
import { OSR_ECONOMY } from '../../src/encounter/economies.js';
import { encounterModule } from '../../src/encounter/module.js';
import { scoreSequencer } from '../../src/encounter/sequencers/score.js';
import type { EncounterRules } from '../../src/encounter/types.js';
import { Table, playRound } from './harness.js';

const rules: EncounterRules = { sequencer: scoreSequencer(), economy: OSR_ECONOMY, conditions: [{ id: 'dazed', name: 'Dazed', stacking: 'refresh', effects: {} }] };
const ann: Viewer = { role: 'player', seatId: 's1' };
const spectator: Viewer = { role: 'spectator' };
const SECRET = 'Zz-secret-lurker';

describe('the one clock', () => {
  it('turns and rounds advance the table clock through core clock.advanced events, and undo takes them back', () => {
    const t = new Table([encounterModule(rules)]);
    t.ok({ type: 'encounter.start', combatants: [{ id: 'ada', kind: 'pc', stats: { dex: 14 } }, { id: 'orc', kind: 'npc', stats: { dex: 9 } }] });
    const first = t.ok({ type: 'encounter.endTurn' });
    expect(first.filter((e) => e.type === 'clock.advanced')).toEqual([{ type: 'clock.advanced', unit: 'turn', count: 1, seconds: 0, from: 0, to: 0, combatant: 'ada' }]);
    const last = t.ok({ type: 'encounter.endTurn' });
    expect(last.filter((e) => e.type === 'clock.advanced').map((e) => [e['unit'], e['seconds'], e['from'], e['to']])).toEqual([['turn', 0, 0, 0], ['round', 6, 0, 6]]);
    expect(t.world.clock).toMatchObject({ seconds: 6, counts: { turn: 2, round: 1 } });
    t.undo();
    expect(t.world.clock).toMatchObject({ seconds: 0, counts: { turn: 1, round: 0 } });
  });

  it('anything timed can subscribe to clock.advanced: a reaction sees each round end', () => {
    const seen: number[] = [];
    const watcher = { id: 'watch', reactions: [(_w: World, e: { type: string; [k: string]: unknown }) => (e.type === 'clock.advanced' && e['unit'] === 'round' ? (seen.push(Number(e['to'])), []) : [])] };
    const t = new Table([encounterModule(rules), watcher]);
    t.ok({ type: 'encounter.start', combatants: [{ id: 'ada', kind: 'pc', stats: { dex: 14 } }] });
    playRound(t);
    playRound(t);
    expect(seen).toEqual([6, 12]);
  });
});

describe('rests on the one clock', () => {
  it('until-rest conditions end when the clock passes a rest, whoever advanced it; undo brings them back', () => {
    const t = new Table([encounterModule(rules)]);
    t.ok({ type: 'encounter.start', combatants: [{ id: 'ada', kind: 'pc', stats: { dex: 14 } }, { id: 'orc', kind: 'npc', stats: { dex: 9 } }] });
    t.ok({ type: 'condition.apply', target: 'ada', condition: 'dazed', duration: { kind: 'rest', rest: 'short' } });
    t.ok({ type: 'condition.apply', target: 'orc', condition: 'dazed', duration: { kind: 'rest', rest: 'long' } });
    t.ok({ type: 'encounter.end' });
    const rest = t.ok({ type: 'clock.advance', unit: 'shortRest', seconds: 3600 });
    expect(rest.map((e) => e.type)).toEqual(['clock.advanced', 'condition.expired']);
    expect(Object.values(t.enc.conditions).map((c) => c.target)).toEqual(['orc']);
    t.ok({ type: 'encounter.rest', rest: 'long' });
    expect(t.world.clock.counts).toMatchObject({ shortRest: 1, longRest: 1 });
    expect(Object.values(t.enc.conditions)).toEqual([]);
    t.undo();
    t.undo();
    expect(Object.values(t.enc.conditions).map((c) => c.target)).toEqual(['ada', 'orc']);
  });
});

describe('encounter log entries', () => {
  const roster: Json[] = [
    { id: 'ada', kind: 'pc', stats: { dex: 14 } },
    { id: 'shade', name: 'Shadow Assassin', kind: 'npc', visibility: 'existence', stats: { dex: 12 } },
    { id: 'lurk', name: SECRET, kind: 'npc', visibility: 'hidden', stats: { dex: 10 } },
  ];
  const texts = (t: Table, v: Viewer) => t.engine.view(t.table, v).world.log.map((e) => e.text);

  it('round and turn entries are public; a hidden combatant’s are GM-only; an existence-tier one is nameless', () => {
    const t = new Table([encounterModule(rules)]);
    t.ok({ type: 'encounter.start', combatants: roster });
    playRound(t);
    // The GM reads the name (a GM review finding: "Unknown: turn starts." on the GM's own log); players do not.
    expect(texts(t, { role: 'gm' })).toEqual(['The encounter begins.', 'ada: turn starts.', 'Shadow Assassin: turn starts.', `${SECRET}: turn starts.`, 'Round 2 begins.', 'ada: turn starts.']);
    expect(texts(t, ann)).toEqual(['The encounter begins.', 'ada: turn starts.', 'Unknown: turn starts.', 'Round 2 begins.', 'ada: turn starts.']);
    expect(JSON.stringify(t.engine.view(t.table, ann))).not.toContain('Shadow Assassin');
    for (const v of [ann, spectator]) {
      const json = JSON.stringify(t.engine.view(t.table, v));
      expect(json).not.toContain(SECRET);
      expect(json).not.toContain('lurk');
      expect(json).not.toContain('Shadow Assassin');
    }
  });

  it('conditions are logged for visible bearers only; a duration anchored to a hidden turn does not name it', () => {
    const t = new Table([encounterModule(rules)]);
    t.ok({ type: 'encounter.start', combatants: roster });
    t.ok({ type: 'condition.apply', target: 'ada', condition: 'dazed', duration: { kind: 'turnEnd', of: 'lurk' } });
    t.ok({ type: 'condition.apply', target: 'shade', condition: 'dazed', duration: { kind: 'encounterEnd' } });
    t.ok({ type: 'condition.apply', target: 'lurk', condition: 'dazed', duration: { kind: 'encounterEnd' } });
    playRound(t); // the lurker's turn ends: ada's Dazed ends
    expect(texts(t, ann).filter((x) => x.includes('Dazed'))).toEqual(['ada: Dazed.', 'ada: Dazed ends.']);
    expect(texts(t, { role: 'gm' }).filter((x) => x.includes('Dazed'))).toEqual(['ada: Dazed.', 'Shadow Assassin: Dazed.', `${SECRET}: Dazed.`, 'ada: Dazed ends.']);
    for (const v of [ann, spectator]) {
      const json = JSON.stringify(t.engine.view(t.table, v));
      expect(json).not.toContain('lurk');
      expect(json).not.toContain(SECRET);
    }
  });

  it('a reveal is announced to everyone, hiding is a GM note; join and leave follow visibility', () => {
    const t = new Table([encounterModule(rules)]);
    t.ok({ type: 'encounter.start', combatants: roster });
    t.ok({ type: 'encounter.add', combatant: { id: 'imp', name: 'Imp', kind: 'npc', stats: { dex: 3 } } });
    t.ok({ type: 'encounter.add', combatant: { id: 'spy', name: SECRET, kind: 'npc', visibility: 'hidden', stats: { dex: 3 } } });
    t.ok({ type: 'encounter.remove', id: 'spy' });
    t.ok({ type: 'encounter.reveal', id: 'shade' });
    t.ok({ type: 'encounter.hide', id: 'imp' });
    t.ok({ type: 'encounter.end' });
    expect(texts(t, ann)).toEqual(['The encounter begins.', 'ada: turn starts.', 'Imp joins the encounter.', 'Shadow Assassin is revealed.', 'The encounter ends after round 1.']);
    expect(texts(t, { role: 'gm' })).toContain(`${SECRET} leaves the encounter.`);
    expect(texts(t, { role: 'gm' })).toContain('Imp is now hidden from the players.');
  });
});

describe('hidden turns cannot be counted from a player view', () => {
  const visible = fc.uniqueArray(fc.integer({ min: 3, max: 18 }), { minLength: 1, maxLength: 4 });
  const hidden = fc.array(fc.integer({ min: 3, max: 18 }), { minLength: 1, maxLength: 3 });

  it('a player’s projected world equals the one of a table where the hidden combatants never existed', () => {
    fc.assert(
      fc.property(visible, hidden, fc.integer({ min: 1, max: 3 }), (vis, hid, rounds) => {
        const roster = vis.map((dex, i) => ({ id: `v${i}`, kind: i === 0 ? 'pc' : 'npc', stats: { dex } }));
        const secret = hid.map((dex, i) => ({ id: `h${i}`, name: SECRET, kind: 'npc', visibility: 'hidden', stats: { dex } }));
        const a = new Table([encounterModule(rules)], seededRng(1));
        const b = new Table([encounterModule(rules)], seededRng(1));
        a.ok({ type: 'encounter.start', combatants: [...roster, ...secret] });
        b.ok({ type: 'encounter.start', combatants: roster });
        // Log entries carry transaction numbers, a public activity counter (see ADR 3); compare the rest.
        const seen = (t: Table) => {
          const w = t.engine.view(t.table, ann).world;
          return JSON.stringify({ ...w, log: w.log.map((e) => ({ ...e, tx: 0 })) });
        };
        const skipHidden = () => {
          while (a.enc.current !== null && a.enc.current.startsWith('h')) a.ok({ type: 'encounter.endTurn' });
        };
        skipHidden();
        expect(seen(a)).toBe(seen(b));
        for (let i = 0; i < rounds * vis.length; i++) {
          a.ok({ type: 'encounter.endTurn' });
          b.ok({ type: 'encounter.endTurn' });
          skipHidden();
          expect(seen(a)).toBe(seen(b));
        }
        expect(a.world.clock.counts.turn).toBeGreaterThan(b.world.clock.counts.turn);
      }),
      { numRuns: 60 },
    );
  });

  it('history keeps hidden turns’ clock events with the GM', () => {
    const t = new Table([encounterModule(rules)]);
    t.ok({ type: 'encounter.start', combatants: [{ id: 'ada', kind: 'pc', stats: { dex: 14 } }, { id: 'lurk', name: SECRET, kind: 'npc', visibility: 'hidden', stats: { dex: 10 } }] });
    t.ok({ type: 'encounter.endTurn' });
    t.ok({ type: 'encounter.endTurn' });
    const clockEvents = (v: Viewer) => t.engine.view(t.table, v).history.flatMap((h) => h.events).filter((e) => e.type === 'clock.advanced').map((e) => e['unit']);
    expect(clockEvents({ role: 'gm' })).toEqual(['turn', 'turn', 'round']);
    expect(clockEvents(ann)).toEqual(['turn', 'round']);
  });
});

describe('the default Edge Save roller is the Kleptonomicon Test', () => {
  it('a 10 flips a coin: called right counts 10 (pass), wrong counts 0 (fail); the roll is recorded', () => {
    const t = new Table([encounterModule({ ...kleptonomiconEncounter(), conditions: [] })], fixedRng([10, 2, 10, 1]));
    t.ok({
      type: 'encounter.start',
      combatants: [
        { id: 'wolf', kind: 'npc', stats: { creatureType: 'wolf', edgeSave: 0 } },
        { id: 'ana', kind: 'pc', stats: { edgeSave: 1 } },
        { id: 'bo', kind: 'pc', stats: { edgeSave: 0 } },
      ],
    });
    // ana: face 10, coin wrong -> 0 + 1 = 1, at most 6: fails against the wolves, slot after them.
    // bo: face 10, coin right -> 10 + 0 = 10: passes every group, goes first.
    expect(t.enc.combatants['ana']?.placement).toMatchObject({ slot: 1, score: 1 });
    expect(t.enc.combatants['bo']?.placement).toMatchObject({ slot: 0, score: 10 });
    const detail = (t.enc.combatants['ana']?.placement as { rolls: { detail: { dice: unknown[] } }[] }).rolls[0]?.detail;
    expect(detail?.dice).toEqual([{ face: 10, value: 0, critical: 'failure', coin: 2 }]);
    expect(playRound(t)).toEqual(['bo', 'wolf', 'ana']);
  });

  it('a fractional or huge Edge Save stat is made a whole number within the limit instead of throwing', () => {
    expect(kleptoEdgeSave(fixedRng([4]), { modifier: 2.7, advantage: 0 }).score).toBe(6);
    expect(kleptoEdgeSave(fixedRng([4]), { modifier: 1e9, advantage: 0 }).score).toBe(1004);
    expect(kleptoEdgeSave(fixedRng([4, 9, 1, 2]), { modifier: 0, advantage: 9 }).score).toBe(9);
  });
});
