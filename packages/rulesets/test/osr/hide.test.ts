// 001 "Positioning" and "Light": hiding is a stealth check (DEX, DC 11 unless the
// GM says otherwise) the light favours or hinders. Issue 20: the odds before the
// roll are the hide's own (its tags), Hide is offered in the actor's actions at
// the cost of the active action; a PC's Hide roll is the GM's and its player's, and
// being in stealth is shown to whoever sees the PC (ADR 89, addendum).
import { describe, expect, it } from 'vitest';
import { getEncounter, type Viewer } from '@tablekeeper/engine';
import { eventsOf, osrTable } from './helpers.js';

/** Exact chance, by counting every face (or pair of faces), that d20 + mod meets dc; with advantage the higher die counts. */
function countFaces(mod: number, dc: number, advantage: -1 | 0 | 1): number {
  if (advantage === 0) return Array.from({ length: 20 }, (_, i) => i + 1).filter((f) => f + mod >= dc).length / 20;
  let pass = 0;
  for (let a = 1; a <= 20; a++) for (let b = 1; b <= 20; b++) if ((advantage === 1 ? Math.max(a, b) : Math.min(a, b)) + mod >= dc) pass++;
  return pass / 400;
}

function fight() {
  const t = osrTable();
  const ann = t.seat('Ann');
  const bo = t.seat('Bo');
  // DEX 14: +2.
  const kira = t.add('Kira', { maxHp: 14, dex: 14, str: 12, ac: 13 }, 'pc', ann);
  const bram = t.add('Bram', { maxHp: 12, dex: 10, ac: 12 }, 'pc', bo);
  const gob = t.add('Goblin', { hp: 5, maxHp: 5, dex: 8, ac: 11 }, 'npc');
  t.run({
    type: 'encounter.start',
    combatants: [
      { id: 'k', name: 'Kira', kind: 'pc', side: 'party', characterId: kira, stats: { dex: 14 } },
      { id: 'b', name: 'Bram', kind: 'pc', side: 'party', characterId: bram, stats: { dex: 10 } },
      { id: 'g', name: 'Goblin', kind: 'npc', side: 'foes', characterId: gob, stats: { dex: 8 } },
    ],
  });
  // Play on to Kira's turn, whoever won initiative.
  for (let i = 0; i < 3 && getEncounter(t.world).current !== 'k'; i++) t.run({ type: 'encounter.endTurn' });
  expect(getEncounter(t.world).current).toBe('k');
  return { t, kira, bram, gob, annView: { role: 'player', seatId: ann } as Viewer, boView: { role: 'player', seatId: bo } as Viewer };
}

const actions = (t: ReturnType<typeof osrTable>, viewer: Viewer = { role: 'gm' }) => {
  const r = t.s.engine.query(t.s.table, viewer, 'osr.actions', { combatantId: 'k' });
  if (!r.ok) throw new Error(r.error.message);
  return (r.value as { actions: { id: string; allowed: boolean; reason: string | null; command: string; cost: string; odds: { query: string; args: { [k: string]: unknown }; pass: string[] } | null }[] }).actions;
};

describe('the hide check\'s exact odds (osr.checkOdds with the hide\'s tags)', () => {
  it('in darkness stealth rolls with advantage: 336 of 400 pairs of faces reach DC 11 with +2, where one die gives 12 of 20', () => {
    const { t, kira } = fight();
    t.run({ type: 'osr.setLight', level: 'darkness' });
    const ask = (args: { [k: string]: unknown }) => {
      const r = t.s.engine.query(t.s.table, { role: 'gm' }, 'osr.checkOdds', { characterId: kira, ability: 'dex', difficulty: 11, ...args });
      if (!r.ok) throw new Error(r.error.message);
      return (r.value as { pass: number }).pass;
    };
    expect(countFaces(2, 11, 1)).toBe(336 / 400);
    expect(ask({ tags: ['stealth'] })).toBeCloseTo(336 / 400, 12);
    // Without the tag the light has no say: a plain d20.
    expect(countFaces(2, 11, 0)).toBe(12 / 20);
    expect(ask({})).toBeCloseTo(12 / 20, 12);
    // The hide itself rolls two dice and keeps the higher: the odds' case.
    t.dice.queue(4, 9);
    const [checked] = eventsOf(t.run({ type: 'osr.hide', characterId: kira }), 'osr.checked');
    expect(checked!['roll']).toMatchObject({ dice: [4, 9], advantage: 1, natural: 9, modifier: 2, total: 11, success: true });
  });

  it('brilliant light hinders stealth: the lower of two dice, 144 of 400 pairs with +2 against DC 11', () => {
    const { t, kira } = fight();
    t.run({ type: 'osr.setLight', level: 'brilliant' });
    const r = t.s.engine.query(t.s.table, { role: 'gm' }, 'osr.checkOdds', { characterId: kira, ability: 'dex', difficulty: 11, tags: ['stealth'] });
    if (!r.ok) throw new Error(r.error.message);
    expect(countFaces(2, 11, -1)).toBe(144 / 400);
    expect((r.value as { pass: number }).pass).toBeCloseTo(144 / 400, 12);
  });

  it('a tag the light does not know is refused by name', () => {
    const { t, kira } = fight();
    const r = t.s.engine.query(t.s.table, { role: 'gm' }, 'osr.checkOdds', { characterId: kira, tags: ['sneaking'] });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.path).toContain('tags');
  });
});

describe('Hide in the actor\'s actions', () => {
  it('costs the active action, asks the odds with DEX and stealth\'s tag, and is refused once hidden or once the active action is spent', () => {
    const { t, kira, gob } = fight();
    const hide = actions(t).find((a) => a.id === 'hide')!;
    expect(hide).toMatchObject({ command: 'osr.hide', cost: '1 active action', allowed: true });
    expect(hide.odds).toEqual({ query: 'osr.checkOdds', args: { characterId: kira, ability: 'dex', tags: ['stealth'] }, pass: ['difficulty', 'bonus', 'advantage', 'proficient'] });
    t.dice.queue(18);
    const tx = t.run({ type: 'osr.hide', characterId: kira });
    // The active action is spent, and Kira is in stealth.
    expect(eventsOf(tx, 'economy.spent')).toHaveLength(1);
    expect(t.osr.hidden).toEqual([kira]);
    const after = actions(t).find((a) => a.id === 'hide')!;
    expect(after.allowed).toBe(false);
    expect(after.reason).toBe('Kira is already in stealth');
    // The attack needs the active action too: spent on hiding.
    expect(actions(t).find((a) => a.id === 'attack')!.allowed).toBe(false);
    expect(t.s.fail({ type: 'osr.attack', attackerId: kira, targetId: gob }).code).toBeTruthy();
  });

  it('off its own turn, a hide costs no action of the fight (the economy is the turn\'s)', () => {
    const { t, bram } = fight();
    t.dice.queue(18);
    const tx = t.run({ type: 'osr.hide', characterId: bram });
    expect(eventsOf(tx, 'economy.spent')).toHaveLength(0);
    expect(t.osr.hidden).toEqual([bram]);
  });
});

describe("a PC's Hide roll is the GM's and its player's; being in stealth is shown like the PC (ADR 89, addendum)", () => {
  it('everyone who sees Kira sees her in stealth and reads the stealth lines; only her player and the GM read the roll', () => {
    const { t, kira, annView, boView } = fight();
    t.dice.queue(18);
    t.run({ type: 'osr.hide', characterId: kira });
    const hiddenFor = (v: Viewer) => (t.s.view(v).world.ext['osr'] as { hidden: string[] }).hidden;
    const lines = (v: Viewer) => t.s.view(v).world.log.map((l) => l.text);
    const spectator: Viewer = { role: 'spectator' };
    for (const v of [{ role: 'gm' } as Viewer, annView, boView, spectator]) {
      expect(hiddenFor(v), JSON.stringify(v)).toEqual([kira]);
      expect(lines(v), JSON.stringify(v)).toContain('Kira is in stealth.');
    }
    // The roll (d20 18 + 2 against DC 11) names Kira; it reaches her player and the GM only.
    const roll = (v: Viewer) => lines(v).filter((l) => l.startsWith('Kira ') && /18/.test(l) && !/stealth\.$/.test(l));
    expect(roll({ role: 'gm' })).toHaveLength(1);
    expect(roll(annView)).toEqual(roll({ role: 'gm' }));
    expect(roll(boView)).toEqual([]);
    expect(roll(spectator)).toEqual([]);
    // Spotted: the GM's control; its line goes to everyone who sees Kira.
    t.run({ type: 'osr.reveal', characterId: kira });
    expect(t.osr.hidden).toEqual([]);
    for (const v of [annView, boView, spectator]) {
      expect(lines(v).at(-1)).toBe('Kira is no longer hidden (spotted).');
      expect(hiddenFor(v)).toEqual([]);
    }
    // Only the GM says who is spotted.
    expect(t.s.engine.execute(t.s.table, { type: 'osr.reveal', characterId: kira }, { rng: t.dice, actor: annView }).ok).toBe(false);
  });

  it("a visible foe's stealth is everyone's: players see the goblin slip away", () => {
    const { t, gob, boView } = fight();
    // An NPC's sheet starts known by name only; shown, its stealth is shown with it.
    t.run({ type: 'character.update', characterId: gob, visibility: 'visible' });
    t.dice.queue(20);
    t.run({ type: 'osr.hide', characterId: gob });
    expect((t.s.view(boView).world.ext['osr'] as { hidden: string[] }).hidden).toEqual([gob]);
    expect(t.s.view(boView).world.log.map((l) => l.text)).toContain('Goblin is in stealth.');
  });
});
