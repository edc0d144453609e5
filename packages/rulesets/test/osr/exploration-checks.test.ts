// Issue 20 (review 13): the checks a party makes while exploring are reachable with no fight running
// (osr.checks): Hide, Listen, Search, Track and an ability check per PC, each with the exact odds of the
// roll it sends (the light's tags, 001 "Light"); Hide is refused in a fight, where it is a turn's action.
import { describe, expect, it } from 'vitest';
import { getEncounter, type Json, type Viewer } from '@tablekeeper/engine';
import { eventsOf, osrTable } from './helpers.js';

/** Exact chance, by counting every face (or pair of faces), that d20 + mod meets dc; with advantage the higher die counts. */
function countFaces(mod: number, dc: number, advantage: -1 | 0 | 1): number {
  if (advantage === 0) return Array.from({ length: 20 }, (_, i) => i + 1).filter((f) => f + mod >= dc).length / 20;
  let pass = 0;
  for (let a = 1; a <= 20; a++) for (let b = 1; b <= 20; b++) if ((advantage === 1 ? Math.max(a, b) : Math.min(a, b)) + mod >= dc) pass++;
  return pass / 400;
}

type Entry = {
  id: string;
  name: string;
  label: string;
  command: string;
  fixed: { [k: string]: Json };
  allowed: boolean;
  reason: string | null;
  numbers: { field: string; value: number }[];
  choices: { field: string; list?: boolean; options: { value: string }[] }[];
  odds: { query: string; args: { [k: string]: Json }; pass: string[] } | null;
};

function party() {
  const t = osrTable();
  const ann = t.seat('Ann');
  const bo = t.seat('Bo');
  // DEX 14 (+2), WIS 12 (+1).
  const kira = t.add('Kira', { maxHp: 14, dex: 14, wis: 12, ac: 13 }, 'pc', ann);
  const bram = t.add('Bram', { maxHp: 12, dex: 10, wis: 8, ac: 12 }, 'pc', bo);
  return { t, kira, bram, annView: { role: 'player', seatId: ann } as Viewer, boView: { role: 'player', seatId: bo } as Viewer };
}

const checks = (t: ReturnType<typeof osrTable>, viewer: Viewer = { role: 'gm' }) => {
  const r = t.s.engine.query(t.s.table, viewer, 'osr.checks', {});
  if (!r.ok) throw new Error(r.error.message);
  return r.value as { actions: Entry[] };
};
const entry = (list: { actions: Entry[] }, name: string, label: string): Entry => {
  const e = list.actions.find((a) => a.name === name && a.label.startsWith(label));
  if (e === undefined) throw new Error(`no ${label} for ${name}`);
  return e;
};
/** The command the form sends with its opening values: fixed fields, each number, the first option of each picker. */
const sent = (e: Entry): { type: string; [k: string]: Json } => ({
  type: e.command,
  ...e.fixed,
  ...Object.fromEntries(e.numbers.map((n) => [n.field, n.value])),
  // As the form sends a picker: an empty first option leaves the field out; a list picker sends a one-item list.
  ...Object.fromEntries(e.choices.filter((c) => c.options[0]!.value !== '').map((c) => [c.field, c.list === true ? [c.options[0]!.value] : c.options[0]!.value])),
});
const oddsOf = (t: ReturnType<typeof osrTable>, e: Entry): number => {
  const form = sent(e);
  const args = { ...e.odds!.args, ...Object.fromEntries(e.odds!.pass.filter((f) => form[f] !== undefined).map((f) => [f, form[f]!])) };
  const r = t.s.engine.query(t.s.table, { role: 'gm' }, e.odds!.query, args);
  if (!r.ok) throw new Error(r.error.message);
  return (r.value as { pass: number }).pass;
};

describe('osr.checks: the exploring checks with no fight running', () => {
  it('the GM gets five checks and a trap or save for each PC, a player only their own five', () => {
    const { t, annView } = party();
    const gm = checks(t);
    expect(gm.actions.map((a) => `${a.name}: ${a.label}`)).toEqual([
      'Kira: Hide', 'Kira: Listen', 'Kira: Search (by sight)', 'Kira: Track', 'Kira: Ability check', 'Kira: Trap or save',
      'Bram: Hide', 'Bram: Listen', 'Bram: Search (by sight)', 'Bram: Track', 'Bram: Ability check', 'Bram: Trap or save',
    ]);
    expect(gm.actions.every((a) => a.allowed)).toBe(true);
    expect(checks(t, annView).actions.map((a) => a.name)).toEqual(Array(5).fill('Kira'));
  });

  it('the odds are the roll\'s own: in dim light Hide (DEX +2, DC 11) and Listen (WIS +1, DC 10) roll with advantage; Track plain', () => {
    const { t } = party();
    t.run({ type: 'osr.setLight', level: 'dim' });
    const list = checks(t);
    expect(countFaces(2, 11, 1)).toBe(336 / 400);
    expect(oddsOf(t, entry(list, 'Kira', 'Hide'))).toBeCloseTo(336 / 400, 12);
    // WIS +1 needs a 9 or more: both dice miss in 8 × 8 of 400 pairs.
    expect(countFaces(1, 10, 1)).toBe((400 - 64) / 400);
    expect(oddsOf(t, entry(list, 'Kira', 'Listen'))).toBeCloseTo((400 - 64) / 400, 12);
    // Dim light says nothing of tracking: one die, WIS +1 against DC 10.
    expect(oddsOf(t, entry(list, 'Kira', 'Track'))).toBeCloseTo(countFaces(1, 10, 0), 12);
    // And the roll is made as the odds say: two dice for the listen, the higher kept.
    t.dice.queue(3, 12);
    const [checked] = eventsOf(t.run(sent(entry(list, 'Kira', 'Listen'))), 'osr.checked');
    expect(checked!['roll']).toMatchObject({ dice: [3, 12], advantage: 1, natural: 12, modifier: 1, total: 13, success: true });
  });

  it('Hide from the list, outside a fight: in stealth, logged for Kira\'s player, refused a second time; the GM\'s Spotted ends it', () => {
    const { t, annView, boView } = party();
    t.dice.queue(15);
    const tx = t.run(sent(entry(checks(t), 'Kira', 'Hide')));
    expect(eventsOf(tx, 'osr.hid')).toHaveLength(1);
    expect(t.s.view(annView).world.log.map((l) => l.text)).toContain('Kira is in stealth.');
    const after = checks(t);
    expect(entry(after, 'Kira', 'Hide')).toMatchObject({ allowed: false, reason: 'Kira is already in stealth' });
    // Only the GM rules her spotted; Bo's list has no such entry.
    expect(checks(t, boView).actions.some((a) => a.command === 'osr.reveal')).toBe(false);
    t.run(sent(entry(after, 'Kira', 'Spotted')));
    expect(t.s.view(annView).world.log.map((l) => l.text)).toContain('Kira is no longer hidden (spotted).');
    expect(entry(checks(t), 'Kira', 'Hide').allowed).toBe(true);
  });

  it('in a fight Hide is the turn\'s active action, so the list refuses it and says where it is; the senses stay', () => {
    const { t, kira, bram } = party();
    t.run({
      type: 'encounter.start',
      combatants: [
        { id: 'k', name: 'Kira', kind: 'pc', side: 'party', characterId: kira, stats: { dex: 14 } },
        { id: 'b', name: 'Bram', kind: 'pc', side: 'party', characterId: bram, stats: { dex: 10 } },
      ],
    });
    expect(getEncounter(t.world).active).toBe(true);
    const list = checks(t);
    expect(entry(list, 'Kira', 'Hide')).toMatchObject({ allowed: false, reason: "Kira is in the fight: Hide is an active action on Kira's turn, in the turn's actions" });
    expect(entry(list, 'Kira', 'Listen').allowed).toBe(true);
  });

  it('a PC at 0 HP is refused each check, with the reason', () => {
    const { t, kira } = party();
    t.run({ type: 'character.update', characterId: kira, stats: { hp: 0 } });
    const mine = checks(t).actions.filter((a) => a.name === 'Kira');
    expect(mine.length).toBe(6);
    for (const a of mine) expect(a.allowed, a.label).toBe(false);
  });
});
