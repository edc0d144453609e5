// ADR 111: an OSR check may name several of the light's kinds of act (001 "Light"): a search by sight for a trap
// is seeing and predicting danger. The light is one source, so any favoured kind gives one advantage and any
// hindered kind one disadvantage, however many are ticked; the two together cancel by the table's rule. The
// odds are recounted here face by face and compared with osr.checkOdds and with what osr.check rolls.
import { describe, expect, it } from 'vitest';
import { type Json } from '@tablekeeper/engine';
import { eventsOf, osrTable } from './helpers.js';

type Choice = { field: string; list?: boolean; options: { value: string; label: string }[] };
type Entry = { id: string; label: string; command: string; fixed: { [k: string]: Json }; choices: Choice[]; odds: { query: string; args: { [k: string]: Json }; pass: string[] } | null };

/** The chance that the kept d20 + mod reaches dc, counted over the 400 ordered pairs (or 20 faces). */
function passCount(mod: number, dc: number, advantage: -1 | 0 | 1, impossible = false): number {
  if (impossible) return 0;
  let pass = 0;
  for (let a = 1; a <= 20; a++) for (let b = 1; b <= 20; b++) if ((advantage === 0 ? a : advantage === 1 ? Math.max(a, b) : Math.min(a, b)) + mod >= dc) pass++;
  return pass / 400;
}

function party(settings: { [k: string]: Json } = {}) {
  const t = osrTable(settings);
  // WIS 12 (+1), DEX 14 (+2); no proficiency asked.
  const kira = t.add('Kira', { maxHp: 14, hp: 14, dex: 14, wis: 12 }, 'pc');
  return { t, kira };
}
const entry = (t: ReturnType<typeof osrTable>, label: string): Entry => {
  const r = t.s.engine.query(t.s.table, { role: 'gm' }, 'osr.checks', {});
  if (!r.ok) throw new Error(r.error.message);
  return (r.value as { actions: Entry[] }).actions.find((a) => a.label === label)!;
};
const oddsOf = (t: ReturnType<typeof osrTable>, e: Entry, pick: { [k: string]: Json }): number => {
  const args = { ...e.odds!.args, ...Object.fromEntries(e.odds!.pass.filter((f) => pick[f] !== undefined).map((f) => [f, pick[f]!])) };
  const r = t.s.engine.query(t.s.table, { role: 'gm' }, e.odds!.query, args);
  if (!r.ok) throw new Error(r.error.message);
  return (r.value as { pass: number }).pass;
};

describe('several light tags on one check', () => {
  it('every check the list offers picks its light tags as a several-pick list; a sense opens with its own ticked', () => {
    const { t } = party();
    const first = (label: string) => entry(t, label).choices.find((c) => c.field === 'tags')!;
    for (const [label, opening] of [['Listen', 'listening'], ['Search (by sight)', 'sight'], ['Track', 'tracking'], ['Ability check', ''], ['Trap or save', 'predicting-danger']] as const) {
      const c = first(label);
      expect(c.list, label).toBe(true);
      expect(c.options[0]!.value, label).toBe(opening);
      expect(entry(t, label).odds!.pass, label).toContain('tags');
      // The odds read only the ticks sent: no tag is fixed into the question behind the form's back.
      expect(entry(t, label).odds!.args['tags'], label).toBeUndefined();
      expect(entry(t, label).fixed['tags'], label).toBeUndefined();
    }
  });

  it('darkness, listening and hiding at once: two favoured kinds are still one advantage (WIS +1 vs DC 15: 231 of 400)', () => {
    const { t } = party();
    t.run({ type: 'osr.setLight', level: 'darkness' });
    const listen = entry(t, 'Listen');
    const pick = { ability: 'wis', difficulty: 15, tags: ['listening', 'stealth'] };
    // A kept 14+ passes: 1 - (13/20)^2 = 231/400.
    expect(passCount(1, 15, 1)).toBe(231 / 400);
    expect(oddsOf(t, listen, pick)).toBeCloseTo(231 / 400, 12);
    expect(oddsOf(t, listen, pick)).toBeCloseTo(oddsOf(t, listen, { ...pick, tags: ['listening'] }), 12);
    // The roll applies the same: two dice, the higher kept; 13 and 14 pass, 13 and 12 fail.
    t.dice.queue(13, 14);
    const [ok] = eventsOf(t.run({ type: 'osr.check', ...listen.fixed, ...pick }), 'osr.checked');
    expect(ok).toMatchObject({ roll: { dice: [13, 14], advantage: 1, natural: 14, total: 15, success: true }, reasons: ['darkness light favours it'] });
    t.dice.queue(13, 12);
    expect(eventsOf(t.run({ type: 'osr.check', ...listen.fixed, ...pick }), 'osr.checked')[0]).toMatchObject({ roll: { advantage: 1, success: false } });
  });

  it('dim light, seeing and listening: a hindered and a favoured kind cancel to one die (7 of 20), in both combining rules', () => {
    for (const combine of ['cancel', 'net'] as const) {
      const { t } = party({ 'osr.advantageCombine': combine });
      t.run({ type: 'osr.setLight', level: 'dim' });
      const search = entry(t, 'Search (by sight)');
      const pick = { ability: 'wis', difficulty: 15, tags: ['sight', 'listening'] };
      expect(passCount(1, 15, 0)).toBe(140 / 400);
      expect(oddsOf(t, search, pick), combine).toBeCloseTo(140 / 400, 12);
      // Sight alone is the disadvantage: 7 × 7 of 400 pairs.
      expect(oddsOf(t, search, { ...pick, tags: ['sight'] }), combine).toBeCloseTo(passCount(1, 15, -1), 12);
      expect(passCount(1, 15, -1)).toBe(49 / 400);
      t.dice.queue(14);
      expect(eventsOf(t.run({ type: 'osr.check', ...search.fixed, ...pick }), 'osr.checked')[0], combine).toMatchObject({ roll: { dice: [14], advantage: 0, success: true } });
    }
  });

  it('darkness, a trap searched for by sight: predicting danger and seeing are one disadvantage, and sight makes it impossible whatever else is ticked', () => {
    const { t } = party();
    t.run({ type: 'osr.setLight', level: 'darkness' });
    const trap = entry(t, 'Trap or save');
    const pick = { ability: 'dex', difficulty: 12, tags: ['predicting-danger', 'finesse'] };
    // DEX +2 vs DC 12 with disadvantage: both dice 10+, 11 × 11 of 400.
    expect(passCount(2, 12, -1)).toBe(121 / 400);
    expect(oddsOf(t, trap, pick)).toBeCloseTo(121 / 400, 12);
    // Listening favoured too: the advantage and the one disadvantage cancel (11 of 20).
    expect(oddsOf(t, trap, { ...pick, tags: ['predicting-danger', 'finesse', 'listening'] })).toBeCloseTo(passCount(2, 12, 0), 12);
    // Sight in darkness: impossible, even with stealth's advantage beside it.
    expect(oddsOf(t, trap, { ...pick, tags: ['sight', 'stealth'] })).toBe(0);
    t.dice.queue(20);
    const [blind] = eventsOf(t.run({ type: 'osr.check', ...trap.fixed, ...pick, tags: ['sight', 'stealth'] }), 'osr.checked');
    expect(blind).toMatchObject({ impossible: true, roll: { advantage: 0, success: false } });
  });
});
