// 001 "Range", "Range & Attacks" and "Light" (brilliant) on the attack form (audit 13 #8): the Attack entry offers
// the range band, a spell's delivery and long range; osr.attackOdds answers long range as osr.attack rolls it (it
// answered UNSUPPORTED before), and its advantage is the command's for every light, range and delivery.
import { describe, expect, it } from 'vitest';
import { getEncounter, type Json } from '@tablekeeper/engine';
import { eventsOf, osrTable } from './helpers.js';

/** Exact chance, by counting every face (or pair of faces), that d20 + mod meets the AC; with disadvantage the lower die counts. */
function countFaces(mod: number, ac: number, advantage: -1 | 0 | 1): number {
  if (advantage === 0) return Array.from({ length: 20 }, (_, i) => i + 1).filter((f) => f + mod >= ac).length / 20;
  let hits = 0;
  for (let a = 1; a <= 20; a++) for (let b = 1; b <= 20; b++) if ((advantage === 1 ? Math.max(a, b) : Math.min(a, b)) + mod >= ac) hits++;
  return hits / 400;
}

function fight() {
  const t = osrTable();
  const ann = t.seat('Ann');
  // DEX 14 and INT 14: +2 on shots and arcane spells; STR 10: +0 in melee.
  const kira = t.add('Kira', { maxHp: 14, str: 10, dex: 14, int: 14, ac: 13 }, 'pc', ann);
  const bram = t.add('Bram', { maxHp: 12, dex: 10, ac: 12 }, 'pc');
  // Hit points enough that no roll fells it.
  const gob = t.add('Goblin', { hp: 500, maxHp: 500, dex: 8, ac: 11 }, 'npc');
  t.run({
    type: 'encounter.start',
    combatants: [
      { id: 'k', name: 'Kira', kind: 'pc', side: 'party', characterId: kira, stats: { dex: 14 } },
      { id: 'b', name: 'Bram', kind: 'pc', side: 'party', characterId: bram, stats: { dex: 10 } },
      { id: 'g', name: 'Goblin', kind: 'npc', side: 'foes', characterId: gob, stats: { dex: 8 } },
    ],
  });
  for (let i = 0; i < 3 && getEncounter(t.world).current !== 'k'; i++) t.run({ type: 'encounter.endTurn' });
  expect(getEncounter(t.world).current).toBe('k');
  const odds = (args: { [k: string]: Json }) => {
    const r = t.s.engine.query(t.s.table, { role: 'gm' }, 'osr.attackOdds', { attackerId: kira, targetId: gob, ...args });
    if (!r.ok) throw new Error(r.error.message);
    return r.value as { hit: number; advantage: -1 | 0 | 1; modifier: number; range: string; delivery: string };
  };
  return { t, kira, gob, odds };
}

type Entry = { id: string; command: string; fixed: { [k: string]: Json }; choices: { field: string; options: { value: string; label: string }[] }[]; flags: { field: string; value: boolean }[]; odds: { query: string; args: { [k: string]: Json }; pass: string[] } };
function attackEntry(t: ReturnType<typeof osrTable>): Entry {
  const r = t.s.engine.query(t.s.table, { role: 'gm' }, 'osr.actions', { combatantId: 'k' });
  if (!r.ok) throw new Error(r.error.message);
  return (r.value as { actions: Entry[] }).actions.find((a) => a.id === 'attack')!;
}

describe('the Attack entry offers range, delivery and long range', () => {
  it('range is usual / close / ranged (far is no attack), delivery a melee spell or not, long range a flag; all three reach the odds', () => {
    const { t } = fight();
    const a = attackEntry(t);
    expect(a.choices.map((c) => c.field)).toEqual(['kind', 'range', 'delivery']);
    expect(a.choices.find((c) => c.field === 'range')!.options.map((o) => o.value)).toEqual(['', 'close', 'ranged']);
    expect(a.choices.find((c) => c.field === 'delivery')!.options.map((o) => o.value)).toEqual(['', 'melee']);
    expect(a.flags).toContainEqual({ field: 'longRange', label: 'Long range (the light may hinder it)', value: false });
    for (const f of ['range', 'delivery', 'longRange']) expect(a.odds.pass).toContain(f);
  });
});

describe('a ranged attack in melee (001 "Range & Attacks")', () => {
  it('Kira shoots the Goblin from close range: +2 vs AC 11 at disadvantage, 144 of 400 pairs of faces, where one die gives 12 of 20; the shot rolls two dice and keeps the lower', () => {
    const { t, kira, gob, odds } = fight();
    expect(countFaces(2, 11, 0)).toBe(12 / 20);
    expect(odds({ kind: 'ranged' }).hit).toBeCloseTo(12 / 20, 12);
    expect(countFaces(2, 11, -1)).toBe(144 / 400);
    expect(odds({ kind: 'ranged', range: 'close' })).toMatchObject({ advantage: -1, modifier: 2, range: 'close', delivery: 'ranged' });
    expect(odds({ kind: 'ranged', range: 'close' }).hit).toBeCloseTo(144 / 400, 12);
    t.dice.queue(15, 5);
    const [attacked] = eventsOf(t.run({ type: 'osr.attack', attackerId: kira, targetId: gob, kind: 'ranged', range: 'close' }), 'osr.attacked');
    expect(attacked).toMatchObject({ range: 'close', delivery: 'ranged', hit: false, reasons: ['ranged attack in melee'] });
    expect(attacked!['roll']).toMatchObject({ dice: [15, 5], advantage: -1, natural: 5 });
  });

  it('a touch spell in melee has no such disadvantage; the same spell cast at range from close has it (INT +2 vs AC 11)', () => {
    const { odds } = fight();
    expect(odds({ kind: 'arcane', delivery: 'melee' })).toMatchObject({ advantage: 0, range: 'close', delivery: 'melee' });
    expect(odds({ kind: 'arcane', delivery: 'melee' }).hit).toBeCloseTo(countFaces(2, 11, 0), 12);
    expect(odds({ kind: 'arcane', range: 'close' })).toMatchObject({ advantage: -1, delivery: 'ranged' });
    expect(odds({ kind: 'arcane', range: 'close' }).hit).toBeCloseTo(countFaces(2, 11, -1), 12);
  });
});

describe('long range and the light (001 "Light")', () => {
  it('brilliant light: a long-range shot at disadvantage (144 of 400), a shot at its usual range not (12 of 20); the command rolls the same', () => {
    const { t, kira, gob, odds } = fight();
    t.run({ type: 'osr.setLight', level: 'brilliant' });
    expect(odds({ kind: 'ranged' })).toMatchObject({ advantage: 0 });
    expect(odds({ kind: 'ranged', longRange: true })).toMatchObject({ advantage: -1, range: 'ranged' });
    expect(odds({ kind: 'ranged', longRange: true }).hit).toBeCloseTo(countFaces(2, 11, -1), 12);
    t.dice.queue(3, 17);
    const [attacked] = eventsOf(t.run({ type: 'osr.attack', attackerId: kira, targetId: gob, kind: 'ranged', longRange: true }), 'osr.attacked');
    expect(attacked!['reasons']).toEqual(['brilliant light hinders it']);
    expect(attacked!['roll']).toMatchObject({ dice: [3, 17], advantage: -1, natural: 3 });
  });

  it('well lit: long range changes nothing; dim light hinders a shot once, long or not', () => {
    const { t, odds } = fight();
    expect(odds({ kind: 'ranged', longRange: true })).toMatchObject({ advantage: 0 });
    expect(odds({ kind: 'ranged', longRange: true }).hit).toBeCloseTo(12 / 20, 12);
    t.run({ type: 'osr.setLight', level: 'dim' });
    expect(odds({ kind: 'ranged' }).hit).toBeCloseTo(144 / 400, 12);
    expect(odds({ kind: 'ranged', longRange: true }).hit).toBeCloseTo(144 / 400, 12);
  });

  it("for every light, kind, delivery, range and long range the form can send, the odds' advantage is the one osr.attack rolls with", () => {
    const { t, kira, gob, odds } = fight();
    const forms: { [k: string]: Json }[] = [];
    for (const kind of ['melee', 'ranged', 'arcane', 'divine'])
      for (const delivery of [undefined, 'melee'])
        for (const range of [undefined, 'close', 'ranged'])
          for (const longRange of [false, true]) forms.push({ kind, ...(delivery === undefined ? {} : { delivery }), ...(range === undefined ? {} : { range }), longRange });
    let compared = 0;
    for (const light of ['darkness', 'dim', 'well-lit', 'brilliant']) {
      t.run({ type: 'osr.setLight', level: light });
      for (const f of forms) {
        const q = t.s.engine.query(t.s.table, { role: 'gm' }, 'osr.attackOdds', { attackerId: kira, targetId: gob, ...f });
        // Off the attacker's own action (spend: false), so every form can be rolled in one turn.
        const cmd = { type: 'osr.attack', attackerId: kira, targetId: gob, spend: false, ...f };
        if (!q.ok) {
          // Refused alike, with the same words.
          expect(t.s.fail(cmd)).toMatchObject({ code: q.error.code, message: q.error.message });
          continue;
        }
        const [attacked] = eventsOf(t.run(cmd), 'osr.attacked');
        expect((attacked!['roll'] as { advantage: number }).advantage, `${light} ${JSON.stringify(f)}`).toBe(odds(f).advantage);
        compared++;
      }
    }
    // Per light, counted by hand: a melee weapon 4 (usual or close, either delivery, never long), a shot 5 (usual,
    // close, ranged; long range at usual and ranged), each spell kind 5 delivered at range + 2 in melee = 7: 23.
    expect(compared).toBe(4 * 23);
  });
});

describe('refusals in words, the same from the odds and the command', () => {
  it('far, a melee attack at range, a bow delivered in melee, long range at close', () => {
    const { t, kira, gob } = fight();
    const cases: [{ [k: string]: Json }, string, string][] = [
      [{ kind: 'ranged', range: 'far' }, 'range', 'far is beyond weapons and spells (001 "Positioning")'],
      [{ kind: 'melee', range: 'ranged' }, 'range', 'a melee attack needs close range (5-10 feet)'],
      [{ kind: 'ranged', delivery: 'melee' }, 'delivery', 'delivery is for spells (arcane or divine): a ranged weapon attack is delivered at range'],
      [{ kind: 'ranged', range: 'close', longRange: true }, 'longRange', 'a long-range attack is made from beyond melee reach, not at close range'],
    ];
    for (const [args, path, message] of cases) {
      const q = t.s.engine.query(t.s.table, { role: 'gm' }, 'osr.attackOdds', { attackerId: kira, targetId: gob, ...args });
      expect(q).toMatchObject({ ok: false, error: { path, message } });
      expect(t.s.fail({ type: 'osr.attack', attackerId: kira, targetId: gob, ...args })).toMatchObject({ path, message });
    }
  });
});
