// A fortify-or-fall choice raised between fights (003 "Damage", ADR 112): the
// GM's damage box or an approved request hurts a PC's sheet with no fight
// running; the player's phone gets the same prompt as in a fight (its view
// holds the choice, the reactions query answers it with the same odds and
// cost), the answer lands on the sheet and the log, and the next fight's start
// and end leave an answered choice alone.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Json, Scenario, Viewer, World } from '@tablekeeper/engine';
import type { TurnAction } from '../../src/actions.js';
import { teamsAwaiting } from '../../src/teams/awaiting.js';
import { fallChoiceWaiting, teamsAtRisk } from '../../src/life.js';
import { boudica, lastOf, sheet, table } from './helpers.js';

const GM: Viewer = { role: 'gm' };
type Prompt = { id: string; kind: string; text: string; actions: TurnAction[] };
type Reactions = { characterId: string; name: string; prompts: Prompt[] };

function ask<T>(s: Scenario, viewer: Viewer, name: string, args: { [k: string]: Json }): T {
  const r = s.engine.query(s.table, viewer, name, args);
  if (!r.ok) throw new Error(`${name}: ${r.error.code} ${r.error.message}`);
  return r.value as unknown as T;
}
const find = (list: readonly TurnAction[], id: string): TurnAction => {
  const x = list.find((y) => y.id === id);
  if (x === undefined) throw new Error(`no ${id} among ${list.map((y) => y.id).join(', ')}`);
  return x;
};
const minted = (s: Scenario, before: readonly string[], of: object): string => Object.keys(of).find((k) => !before.includes(k))!;

/** Ana's seat plays Boudica (the text's sheet, 4 stamina), Bo's seat plays Brak; no fight has run. */
function party(visibility?: 'hidden') {
  const t = table();
  const { s } = t;
  const seatIds = () => Object.keys(s.world.seats);
  const chIds = () => Object.keys(s.world.characters);
  let before = seatIds();
  s.run({ type: 'seat.add', name: 'Ana' });
  const anaSeat = minted(s, before, s.world.seats);
  before = seatIds();
  s.run({ type: 'seat.add', name: 'Bo' });
  const boSeat = minted(s, before, s.world.seats);
  before = chIds();
  s.run({ type: 'character.add', name: 'Boudica', kind: 'pc', seatId: anaSeat, ...(visibility === undefined ? {} : { visibility }) });
  const b = minted(s, before, s.world.characters);
  before = chIds();
  s.run({ type: 'character.add', name: 'Brak', kind: 'pc', seatId: boSeat });
  const brak = minted(s, before, s.world.characters);
  const { name: _name, ...fields } = boudica;
  s.run({ type: 'character.sheet.set', characterId: b, sheet: fields as unknown as Json });
  s.run({ type: 'character.sheet.set', characterId: brak, sheet: { ...fields, attributes: { strength: 4 } } as unknown as Json });
  const ana: Viewer = { role: 'player', seatId: anaSeat };
  const bo: Viewer = { role: 'player', seatId: boSeat };
  return { ...t, b, brak, ana, bo };
}

/** 003 "Damage": 7 takes endurance 12 -> 5, 10 more takes it to 0 and health 12 -> 7; missing 5 is past constitution 4. */
function hurt(s: Scenario, b: string): void {
  s.run({ type: 'teams.damage', targetId: b, amount: 7, reduce: false });
  s.run({ type: 'teams.damage', targetId: b, amount: 10, reduce: false });
}

const lines = (s: Scenario, viewer: Viewer) => s.view(viewer).world.log.map((l) => l.text);
const fightWith = (s: Scenario, b: string, brak: string) =>
  s.run({
    type: 'encounter.start',
    combatants: [
      { id: b, name: 'Boudica', kind: 'pc', side: 'players', characterId: b },
      { id: brak, name: 'Brak', kind: 'pc', side: 'players', characterId: brak },
      { id: 'gob', name: 'Goblin', kind: 'npc', side: 'foes' },
    ],
    params: { teamOrder: ['players', 'foes'] },
  });

describe('fortify or fall between fights (003 "Damage", ADR 112)', () => {
  it("the GM's 7 then 10 leave Boudica at risk with no fight running: her phone's view holds the choice (difficulty 5), and the reactions query offers Fortify (the reaction, 1 stamina) and Fall with the fight's odds, 19/20 x 21/24 + 1/20 = 141/160", () => {
    const { s, b, ana } = party();
    hurt(s, b);
    expect(sheet(s, b)).toMatchObject({ endurance: 0, health: 7, conscious: true, stamina: 4 });
    expect(lastOf(s, 'teams.consciousnessAtRisk')).toMatchObject({ id: b, difficulty: 5 });
    const seen = s.view(ana).world;
    expect((seen.ext['teams'] as { atRisk: object }).atRisk).toEqual({ [b]: { difficulty: 5 } });
    expect(teamsAwaiting(seen).atRisk).toEqual([b]);
    expect(lines(s, ana)).toContain('Boudica is missing more health than their constitution: fortify against 5 or fall unconscious.');

    const r = ask<Reactions>(s, ana, 'teams.reactions', { characterId: b });
    expect(r.prompts).toHaveLength(1);
    expect(r.prompts[0]).toMatchObject({ kind: 'atRisk', text: 'Boudica is losing consciousness: fortify against 5 or fall unconscious.' });
    const fortify = find(r.prompts[0]!.actions, 'fortify');
    expect(fortify).toMatchObject({ label: 'Fortify', cost: 'the reaction, 1 stamina', allowed: true, command: 'teams.stayConscious' });
    expect(find(r.prompts[0]!.actions, 'fall')).toMatchObject({ label: 'Fall unconscious', cost: 'nothing', allowed: true });
    // Strength d6 + athletics d4 + fortitude 1 >= 5 misses only on 3 of 24 pairs; a luck 20 adds 4 and then every pair does.
    const odds = ask<{ pass: number }>(s, ana, fortify.odds!.query, { ...fortify.odds!.args, test: { attribute: 'strength', skill: 'athletics', proficiency: 'fortitude' } });
    expect(odds.pass).toBeCloseTo((19 / 20) * (21 / 24) + 1 / 20, 12);
    expect(odds.pass).toBeCloseTo(141 / 160, 12);
  });

  it("her phone fortifies: 4 + 2 + 1 = 7 against 5 keeps her conscious, 1 stamina spent (4 -> 3); the next fight's start and end leave the answered choice alone", () => {
    const { s, dice, b, brak, ana } = party();
    hurt(s, b);
    const fortify = find(ask<Reactions>(s, ana, 'teams.reactions', { characterId: b }).prompts[0]!.actions, 'fortify');
    dice.push(4, 2, 10);
    s.run({ type: fortify.command, ...fortify.fixed, test: { attribute: 'strength', skill: 'athletics', proficiency: 'fortitude' } }, ana);
    expect(lastOf(s, 'teams.fortified')).toMatchObject({ id: b, difficulty: 5, success: true });
    expect(sheet(s, b)).toMatchObject({ conscious: true, stamina: 3, health: 7 });
    expect(teamsAwaiting(s.world).atRisk).toEqual([]);
    expect(teamsAwaiting(s.view(ana).world).atRisk).toEqual([]);
    expect(lines(s, ana)).toContain('Boudica fortified: 7 against 5, stays conscious.');
    expect(ask<Reactions>(s, ana, 'teams.reactions', { characterId: b }).prompts).toEqual([]);

    const count = () => s.table.transactions.flatMap((t) => (t.kind === 'command' ? t.events : [])).filter((e) => e.type === 'teams.fellUnconscious').length;
    fightWith(s, b, brak);
    s.run({ type: 'encounter.end' });
    expect(count()).toBe(0);
    expect(sheet(s, b)['conscious']).toBe(true);
  });

  it("a failed fortify (1 + 1 + 1 = 3 against 5) knocks her out and still costs the stamina; the next fight's start and end add no second fall", () => {
    const { s, dice, b, brak, ana } = party();
    hurt(s, b);
    dice.push(1, 1, 10);
    s.run({ type: 'teams.stayConscious', characterId: b, fortify: true, test: { attribute: 'strength', skill: 'athletics', proficiency: 'fortitude' } }, ana);
    expect(lastOf(s, 'teams.fortified')).toMatchObject({ success: false });
    expect(sheet(s, b)).toMatchObject({ conscious: false, stamina: 3 });
    expect(lines(s, ana).slice(-2)).toEqual(['Boudica fortified: 3 against 5, fails.', 'Boudica fell unconscious (failed to fortify).']);
    const falls = () => s.table.transactions.flatMap((t) => (t.kind === 'command' ? t.events : [])).filter((e) => e.type === 'teams.fellUnconscious').length;
    expect(falls()).toBe(1);
    fightWith(s, b, brak);
    s.run({ type: 'encounter.end' });
    expect(falls()).toBe(1);
    expect(sheet(s, b)['conscious']).toBe(false);
  });

  it('choosing to fall: unconscious with no stamina spent; the GM may answer for her instead, as in a fight', () => {
    const a = party();
    hurt(a.s, a.b);
    const fall = find(ask<Reactions>(a.s, a.ana, 'teams.reactions', { characterId: a.b }).prompts[0]!.actions, 'fall');
    a.s.run({ type: fall.command, ...fall.fixed }, a.ana);
    expect(sheet(a.s, a.b)).toMatchObject({ conscious: false, stamina: 4 });
    expect(lines(a.s, a.ana)).toContain('Boudica fell unconscious (chose not to fortify).');
    expect(a.s.fail({ type: 'teams.stayConscious', characterId: a.b, fortify: false }, a.ana)).toMatchObject({ code: 'NOT_AT_RISK' });

    const g = party();
    hurt(g.s, g.b);
    expect(ask<Reactions>(g.s, GM, 'teams.reactions', { characterId: g.b }).prompts.map((p) => p.kind)).toEqual(['atRisk']);
    g.dice.push(6, 4, 10);
    g.s.run({ type: 'teams.stayConscious', characterId: g.b, fortify: true, test: { attribute: 'strength', skill: 'athletics' } });
    expect(sheet(g.s, g.b)).toMatchObject({ conscious: true, stamina: 3 });
  });

  it("another seat reads that she is at risk but cannot answer for her; a hidden character's choice stays with the GM", () => {
    const { s, b, bo } = party();
    hurt(s, b);
    expect(teamsAwaiting(s.view(bo).world).atRisk).toEqual([b]);
    expect(s.engine.query(s.table, bo, 'teams.reactions', { characterId: b })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(s.fail({ type: 'teams.stayConscious', characterId: b, fortify: false }, bo)).toMatchObject({ code: 'FORBIDDEN' });

    const h = party('hidden');
    hurt(h.s, h.b);
    expect(teamsAwaiting(h.s.world).atRisk).toEqual([h.b]);
    expect(teamsAwaiting(h.s.view(h.bo).world).atRisk).toEqual([]);
    expect(JSON.stringify(h.s.view(h.bo).world.ext['teams'])).not.toContain(h.b);
  });

  it("left unanswered, the choice waits through a fight she is not in; a fight she is in settles it at its end (003 takes a reaction in the moment), as the GM's End encounter warns", () => {
    const { s, b, brak, ana } = party();
    hurt(s, b);
    s.run({ type: 'encounter.start', combatants: [{ id: brak, name: 'Brak', kind: 'pc', side: 'players', characterId: brak }, { id: 'gob', name: 'Goblin', kind: 'npc', side: 'foes' }], params: { teamOrder: ['players', 'foes'] } });
    s.run({ type: 'encounter.end' });
    expect(teamsAwaiting(s.view(ana).world).atRisk).toEqual([b]);
    expect(sheet(s, b)['conscious']).toBe(true);
    fightWith(s, b, brak);
    s.run({ type: 'encounter.end' });
    expect(sheet(s, b)['conscious']).toBe(false);
    expect(lines(s, ana)).toContain('Boudica fell unconscious (did not fortify before the fight ended).');
  });

  it("one reader of the at-risk list (life.ts): the phone's gate and teamsAwaiting agree in the GM's view, the owner's, another seat's and over a hidden character; a teams key on another ruleset's table reads as none", () => {
    const agree = (w: World, want: readonly string[]) => {
      expect(teamsAtRisk(w)).toEqual(want);
      expect(teamsAwaiting(w).atRisk).toEqual(want);
      expect(fallChoiceWaiting(w)).toBe(want.length > 0);
    };
    const { s, b, brak, ana, bo } = party();
    agree(s.world, []);
    hurt(s, b);
    agree(s.world, [b]);
    agree(s.view(ana).world, [b]);
    agree(s.view(bo).world, [b]);
    // Two at risk read sorted, whichever was hurt first.
    hurt(s, brak);
    agree(s.view(bo).world, [b, brak].sort());
    agree({ ...s.world, rulesetId: 'osr' }, []);
    const h = party('hidden');
    hurt(h.s, h.b);
    agree(h.s.world, [h.b]);
    agree(h.s.view(h.bo).world, []);
  });

  it('with no stamina for the reaction the choice never waits: she falls at once (003: fortifying is a reaction)', () => {
    const { s, b } = party();
    s.run({ type: 'character.sheet.set', characterId: b, sheet: { stamina: 0 }, patch: true });
    hurt(s, b);
    expect(sheet(s, b)['conscious']).toBe(false);
    expect(teamsAwaiting(s.world).atRisk).toEqual([]);
    expect(lastOf(s, 'teams.fellUnconscious')).toMatchObject({ reason: 'could not fortify to stay conscious' });
  });

  it('property: after any run of blows between fights, the owner reads exactly the choices the GM does; any answer clears it, and the next fight adds no fall for an answered one', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 14 }), { maxLength: 4 }), fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }), (more, fortifies) => {
        // The text's 7 then 10 come first, so every run has at least one choice to answer (4 stamina, missing 5 past 4).
        const blows = [7, 10, ...more];
        const { s, dice, b, brak, ana } = party();
        // Every die lands 1: a fortify of 1 + 1 + 1 = 3 may fail, a luck test of 1 against 10 kills; the rules still hold.
        dice.push(...Array.from({ length: 60 }, () => 1));
        let answered = 0;
        for (const [i, amount] of blows.entries()) {
          s.run({ type: 'teams.damage', targetId: b, amount, reduce: false });
          const gmSees = teamsAwaiting(s.world).atRisk;
          expect(teamsAwaiting(s.view(ana).world).atRisk).toEqual(gmSees);
          expect(fallChoiceWaiting(s.view(ana).world)).toBe(gmSees.length > 0);
          if (gmSees.length === 0) continue;
          const fortify = fortifies[i] === true;
          s.run({ type: 'teams.stayConscious', characterId: b, fortify, ...(fortify ? { test: { attribute: 'strength', skill: 'athletics' } } : {}) }, ana);
          answered++;
          expect(teamsAwaiting(s.world).atRisk).toEqual([]);
          expect(teamsAwaiting(s.view(ana).world).atRisk).toEqual([]);
        }
        const falls = () => s.table.transactions.flatMap((t) => (t.kind === 'command' ? t.events : [])).filter((e) => e.type === 'teams.fellUnconscious').length;
        const before = falls();
        fightWith(s, b, brak);
        s.run({ type: 'encounter.end' });
        // Nothing left waiting, so the fight's end settles nothing for her.
        expect(falls()).toBe(before);
        expect(answered).toBeGreaterThanOrEqual(1);
      }),
      { numRuns: 40 },
    );
  });
});
