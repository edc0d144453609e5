// Review 13 item 1: a trap or a save the GM calls for between fights (001 "Saves & Checks", "Traps", "Critical
// Failure", "Light"): a check with a DC, the light's tag, damage on a failure doubled on a natural 1, exact odds
// (and the chance of being hurt) before the roll, logged in words and undone in one step. The in-fight check
// entry carries the light's tag too.
import { describe, expect, it } from 'vitest';
import { type Json, type Viewer } from '@tablekeeper/engine';
import { eventsOf, osrTable } from './helpers.js';

type Choice = { field: string; list?: boolean; options: { value: string; label: string }[] };
type Entry = {
  id: string;
  name: string;
  label: string;
  command: string;
  fixed: { [k: string]: Json };
  allowed: boolean;
  numbers: { field: string; value: number }[];
  choices: Choice[];
  texts: { field: string; value: string }[];
  odds: { query: string; args: { [k: string]: Json }; pass: string[] } | null;
};

/** Every face pair (or face) of the kept d20, counted: how often the check fails, and fails on a natural 1. */
function countFails(mod: number, dc: number, advantage: -1 | 0 | 1, impossible = false): { fail: number; naturalOne: number } {
  const pairs: number[] = [];
  if (advantage === 0) for (let a = 1; a <= 20; a++) for (let b = 1; b <= 20; b++) pairs.push(a); // 20 copies of each face: same weights
  else for (let a = 1; a <= 20; a++) for (let b = 1; b <= 20; b++) pairs.push(advantage === 1 ? Math.max(a, b) : Math.min(a, b));
  const fails = pairs.filter((n) => impossible || n + mod < dc);
  return { fail: fails.length / 400, naturalOne: fails.filter((n) => n === 1).length / 400 };
}

function party() {
  const t = osrTable();
  const ann = t.seat('Ann');
  // DEX 14 (+2), WIS 12 (+1); HP 14.
  const kira = t.add('Kira', { maxHp: 14, hp: 14, dex: 14, wis: 12, ac: 13 }, 'pc', ann);
  return { t, kira, annView: { role: 'player', seatId: ann } as Viewer };
}
const listOf = (t: ReturnType<typeof osrTable>, viewer: Viewer = { role: 'gm' }): Entry[] => {
  const r = t.s.engine.query(t.s.table, viewer, 'osr.checks', {});
  if (!r.ok) throw new Error(r.error.message);
  return (r.value as { actions: Entry[] }).actions;
};
const trapOf = (t: ReturnType<typeof osrTable>): Entry => listOf(t).find((a) => a.label === 'Trap or save')!;

/** The form's payload as the web sends it, with `pick` overriding the opening values (tags as a one-item list). */
function sent(e: Entry, pick: { [k: string]: Json } = {}): { type: string; [k: string]: Json } {
  const out: { [k: string]: Json } = { ...e.fixed };
  for (const n of e.numbers) out[n.field] = n.value;
  for (const c of e.choices) if (c.options[0]!.value !== '') out[c.field] = c.list === true ? [c.options[0]!.value] : c.options[0]!.value;
  for (const x of e.texts) if (x.value !== '') out[x.field] = x.value;
  return { type: e.command, ...out, ...pick };
}
function oddsOf(t: ReturnType<typeof osrTable>, e: Entry, pick: { [k: string]: Json } = {}): { pass: number; damage?: { dice: string; chance: number; doubled: number } } {
  const form = sent(e, pick);
  const args = { ...e.odds!.args, ...Object.fromEntries(e.odds!.pass.filter((f) => form[f] !== undefined).map((f) => [f, form[f]!])) };
  const r = t.s.engine.query(t.s.table, { role: 'gm' }, e.odds!.query, args);
  if (!r.ok) throw new Error(r.error.message);
  return r.value as { pass: number; damage?: { dice: string; chance: number; doubled: number } };
}

describe('OSR traps and saves from the checks list', () => {
  it("the GM's list has a trap or save per PC (DEX, predicting danger, 1d6 on a failure); a player's has none", () => {
    const { t, annView } = party();
    const trap = trapOf(t);
    expect(trap).toMatchObject({ command: 'osr.check', allowed: true, fixed: { characterId: expect.any(String) } });
    expect(trap.choices.map((c) => [c.field, c.options[0]!.value])).toEqual([['ability', 'dex'], ['tags', 'predicting-danger']]);
    expect(trap.texts.map((x) => [x.field, x.value])).toEqual([['label', 'a trap'], ['damageOnFail', '1d6']]);
    expect(trap.odds!.pass).toEqual(expect.arrayContaining(['tags', 'damageOnFail']));
    // Every light tag is labelled in words, none shown as its code.
    for (const o of trap.choices[1]!.options) expect(o.label).not.toMatch(/-/);
    expect(listOf(t, annView).some((a) => a.label === 'Trap or save')).toBe(false);
  });

  it('odds recounted: DEX +2 vs DC 13 in darkness (predicting danger: disadvantage), and with the light changing nothing', () => {
    const { t } = party();
    t.run({ type: 'osr.setLight', level: 'darkness' });
    const trap = trapOf(t);
    // Both dice must show 11+: 10 × 10 of 400 pairs pass; a kept 1 (39 pairs hold a 1) fails and doubles.
    const dark = countFails(2, 13, -1);
    expect(dark).toEqual({ fail: 300 / 400, naturalOne: 39 / 400 });
    const o = oddsOf(t, trap, { difficulty: 13 });
    expect(o.pass).toBeCloseTo(100 / 400, 12);
    expect(o.damage).toMatchObject({ dice: '1d6' });
    expect(o.damage!.chance).toBeCloseTo(dark.fail, 12);
    expect(o.damage!.doubled).toBeCloseTo(dark.naturalOne, 12);
    // No tag: one die; a 11+ passes (10 of 20), a natural 1 is 1 in 20.
    const plain = oddsOf(t, trap, { difficulty: 13, tags: [] });
    expect(plain.pass).toBeCloseTo(0.5, 12);
    expect(plain.damage!.chance).toBeCloseTo(countFails(2, 13, 0).fail, 12);
    expect(plain.damage!.doubled).toBeCloseTo(1 / 20, 12);
    // DC 3: even a natural 1 (1 + 2) succeeds, so nothing can hurt.
    expect(oddsOf(t, trap, { difficulty: 3, tags: [] }).damage).toMatchObject({ chance: 0, doubled: 0 });
    // Sight in darkness cannot succeed (001 "Light"): every roll takes the damage.
    const blind = oddsOf(t, trap, { difficulty: 5, tags: ['sight'] });
    expect(blind.pass).toBe(0);
    expect(blind.damage!.chance).toBe(1);
    expect(blind.damage!.doubled).toBeCloseTo(countFails(2, 5, -1, true).naturalOne, 12);
  });

  it('a natural 1 in darkness doubles the trap\'s damage, logged in words; undo puts Kira\'s HP back', () => {
    const { t, kira, annView } = party();
    t.run({ type: 'osr.setLight', level: 'darkness' });
    // Disadvantage: faces 1 and 15, the 1 kept; then the d6 shows 4, doubled to 8.
    t.dice.queue(1, 15, 4);
    const tx = t.run(sent(trapOf(t), { difficulty: 12, label: 'a poison-needle trap' }));
    expect(eventsOf(tx, 'osr.checked')[0]!['roll']).toMatchObject({ dice: [1, 15], advantage: -1, natural: 1, success: false });
    expect(eventsOf(tx, 'osr.damageRolled')[0]).toMatchObject({ total: 8, doubled: true, doubledBy: 'natural 1' });
    expect(t.stats(kira)['hp']).toBe(6);
    const lines = t.s.view(annView).world.log.map((l) => l.text);
    expect(lines).toContain('Kira failed a poison-needle trap: d20 1 / 15 +2 = 3 vs 12 (darkness light hinders it).');
    expect(lines).toContain('Kira takes 8 damage (1d6, doubled by a natural 1) from a poison-needle trap: HP 14 → 6.');
    t.run({ type: 'history.undo' });
    expect(t.stats(kira)['hp']).toBe(14);
  });

  it('a passed save takes no damage; an empty damage field is a plain save', () => {
    const { t, kira } = party();
    t.dice.queue(18);
    const tx = t.run(sent(trapOf(t), { tags: [] }));
    expect(eventsOf(tx, 'osr.damageRolled')).toHaveLength(0);
    const save = { ...sent(trapOf(t), { tags: [] }) };
    delete save['damageOnFail'];
    t.dice.queue(2);
    expect(eventsOf(t.run(save), 'osr.damageRolled')).toHaveLength(0);
    expect(t.stats(kira)['hp']).toBe(14);
  });

  it('the in-fight check entry sends the light\'s tag: searching by sight in darkness is impossible', () => {
    const { t, kira } = party();
    t.run({ type: 'osr.setLight', level: 'darkness' });
    t.run({ type: 'encounter.start', combatants: [{ id: 'k', name: 'Kira', kind: 'pc', side: 'party', characterId: kira, stats: { dex: 14 } }] });
    const r = t.s.engine.query(t.s.table, { role: 'gm' }, 'osr.actions', { combatantId: 'k' });
    if (!r.ok) throw new Error(r.error.message);
    const check = (r.value as { actions: Entry[] }).actions.find((a) => a.id === 'check')!;
    const tags = check.choices.find((c) => c.field === 'tags')!;
    expect(tags.list).toBe(true);
    expect(check.odds!.pass).toContain('tags');
    expect(oddsOf(t, check, { tags: ['sight'] }).pass).toBe(0);
    t.dice.queue(20, 20);
    const [checked] = eventsOf(t.run(sent(check, { tags: ['sight'], ability: 'wis' })), 'osr.checked');
    expect(checked).toMatchObject({ impossible: true, roll: { success: false } });
  });
});
