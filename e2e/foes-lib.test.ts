// Foes are targets everywhere (issue 20), through the real engines: a foe
// added by name with quick stats, or from a stat block, gets what its
// ruleset's attack reads (an OSR character, a 36th Way or teams sheet keyed
// by the combatant), and the actions query then offers it as a target, to
// the GM and (when visible) to a player; a hidden foe stays out of the
// player's view, its character or sheet included.
import { describe, expect, it } from 'vitest';
import { scenario, seededRng, type Command, type Json, type Scenario, type Transaction, type Viewer } from '@tablekeeper/engine';
import { countingIds } from '@tablekeeper/engine/testing';
import { engineFor, resolveSettings } from '@tablekeeper/rulesets';
import { draftsFrom, initiativeOf, startCommand, type Draft } from '../packages/web/src/lib/initiative.ts';
import { draftsFromEntry } from '../packages/web/src/lib/bestiary.ts';
import { foeArmourCommand, foeCharacterCommand, foeSheetCommand, quickStatsOf, readQuickStats, withFoeCharacters } from '../packages/web/src/lib/foes.ts';

const GM: Viewer = { role: 'gm' };
const idOf = (tx: Transaction): string => (tx.kind === 'command' ? String(tx.events[0]!['id']) : '');

function table(id: string): Scenario {
  const settings = resolveSettings(id);
  if (!settings.ok) throw new Error(settings.error.message);
  return scenario(engineFor(id)!.modules, { rng: countingIds(seededRng(5)), rulesetId: id, settings: settings.value });
}
let n = 0;
const makeId = (k: 'pc' | 'npc') => `${k}-${++n}`;

/** Foes typed as the builder's form takes them, with quick stats. */
function typed(s: Scenario, name: string, hp: string, quick: { [k: string]: string }, hidden = false, init: { [k: string]: string } = {}): Draft[] {
  const d = draftsFrom(initiativeOf(s.world.rulesetId), { name, kind: 'npc', character: null, hp, hidden, init }, makeId);
  const q = readQuickStats(s.world.rulesetId, quick);
  if (!d.ok || !q.ok) throw new Error('draft');
  return d.value.map((x) => ({ ...x, extra: { ...(x.extra ?? {}), ...q.value } }));
}

function targets(s: Scenario, viewer: Viewer, ns: string, combatantId: string): string[] {
  const r = s.engine.query(s.table, viewer, `${ns}.actions`, { combatantId });
  if (!r.ok) throw new Error(`${r.error.code} ${r.error.message}`);
  const attack = (r.value as { actions: { id: string; target: { options: { label: string }[] } | null }[] }).actions.find((a) => a.id === 'attack');
  return attack?.target?.options.map((o) => o.label) ?? [];
}

/** What the builder does: characters for OSR foes, the start, then the sheets the 36th Way or teams need. */
async function start(s: Scenario, drafts: Draft[], params: { [k: string]: Json } = {}): Promise<Draft[]> {
  const ready = await withFoeCharacters(s.world.rulesetId, drafts, async (cmd) => ({ ok: true, value: idOf(s.run(cmd as Command)) }));
  if (!ready.ok) throw new Error(ready.message);
  // A teams fight names its first team, as the builder asks (003): the first one lined up here.
  const c = startCommand(initiativeOf(s.world.rulesetId), ready.value, s.world.characters, { initiating: String(ready.value[0]?.init['team'] ?? '') });
  if (!c.ok) throw new Error(c.message);
  s.run({ ...c.value, ...params } as Command);
  for (const d of ready.value) {
    const cmd = foeSheetCommand(s.world, d);
    if (cmd !== null) s.run(cmd as Command);
  }
  return ready.value;
}

describe('foes are targets', () => {
  it('quick stats: OSR asks AC, the 36th Way AC/PD/MD, teams evasion, the Kleptonomicon a Defense; limits as the bestiary has them', () => {
    expect(quickStatsOf('osr').map((q) => q.label)).toEqual(['AC']);
    expect(quickStatsOf('36th-way').map((q) => q.label)).toEqual(['AC', 'PD', 'MD']);
    expect(quickStatsOf('teams').map((q) => q.label)).toEqual(['Evasion']);
    expect(quickStatsOf('kleptonomicon').map((q) => q.label)).toEqual(['Defense', 'Basic Attack modifier', 'Basic Attack damage']);
    expect(readQuickStats('kleptonomicon', { defense: '101' })).toEqual({ ok: false, message: 'Defense must be a whole number from 0 to 100.' });
    // A Kleptonomicon foe's Basic Attack (review 13 #3): a modifier in the sheet's limits, damage as dice text.
    expect(readQuickStats('kleptonomicon', { attackModifier: '-3', attackDamage: ' 2D4 - 1 ' })).toEqual({ ok: true, value: { attackModifier: -3, attackDamage: '2d4-1' } });
    expect(readQuickStats('kleptonomicon', { attackModifier: '51' })).toEqual({ ok: false, message: 'Basic Attack modifier must be a whole number from -50 to 50.' });
    expect(readQuickStats('kleptonomicon', { attackDamage: 'lots' })).toEqual({ ok: false, message: 'Basic Attack damage must be dice such as 1d6+1 (at most 20 dice of 2 to 100 sides, a bonus up to 100), or a number up to 100.' });
    expect(readQuickStats('kleptonomicon', { attackDamage: '21d6' })).toEqual({ ok: false, message: 'Basic Attack damage rolls at most 20 dice (21 typed).' });
    // One dice reader (diceOfText): its edge cases, each refusal in words after the label.
    expect(readQuickStats('kleptonomicon', { attackDamage: '0d6' })).toEqual({ ok: false, message: 'Basic Attack damage rolls no dice ("0d6"): type 1 to 20 dice, or 0 for no damage.' });
    expect(readQuickStats('kleptonomicon', { attackDamage: '-3' })).toEqual({ ok: false, message: "Basic Attack damage can't be negative (-3): type a number from 0 to 100, or dice with a minus such as 1d6-1." });
    expect(readQuickStats('kleptonomicon', { attackDamage: '03' })).toEqual({ ok: true, value: { attackDamage: '3' } });
    expect(readQuickStats('osr', { ac: '31' })).toEqual({ ok: false, message: 'AC must be a whole number from 0 to 30.' });
    expect(readQuickStats('osr', { ac: ' ' })).toEqual({ ok: true, value: {} });
  });

  it('OSR: "Goblin x2" with AC 13 gets characters (visible, AC and HP on them) and both are Kira\'s targets; a foe with no AC gets one too, listed as needing an AC (review 10)', async () => {
    const s = table('osr');
    const seat = idOf(s.run({ type: 'seat.add', name: 'Ann' } as Command));
    const kira = idOf(s.run({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: seat, stats: { str: 12, dex: 14, hp: 10, maxHp: 10, ac: 12 } }));
    const goblins = typed(s, 'Goblin x2', '7', { ac: '13' });
    expect(foeCharacterCommand('osr', goblins[0]!)).toEqual({ type: 'character.add', name: 'Goblin 1', kind: 'npc', visibility: 'visible', stats: { ac: 13, hp: 7, maxHp: 7, dex: 10 } });
    const bare = typed(s, 'Rat', '', {});
    expect(foeCharacterCommand('osr', bare[0]!)).toEqual({ type: 'character.add', name: 'Rat', kind: 'npc', visibility: 'visible', stats: { dex: 10 } });
    const kiraDraft = draftsFrom(initiativeOf('osr'), { name: '', kind: 'pc', character: s.world.characters[kira]!, hp: '', hidden: false, init: {} }, makeId);
    if (!kiraDraft.ok) throw new Error('kira');
    const ready = await start(s, [...kiraDraft.value, ...goblins, ...bare]);
    const me = ready[0]!.id;
    expect(targets(s, GM, 'osr', me)).toEqual(['Goblin 1', 'Goblin 2', 'Rat']);
    expect(targets(s, { role: 'player', seatId: seat } as Viewer, 'osr', me)).toEqual(['Goblin 1', 'Goblin 2', 'Rat']);
    // The Rat is listed with a note: 001 gives no default AC, so the sheet's 10 is used and said (ADR 76).
    const rat = ready[3]!.characterId!;
    const ratOption = (s.engine.query(s.table, GM, 'osr.actions', { combatantId: me }) as unknown as { value: { actions: { id: string; target: { options: { value: string; note?: string }[] } | null }[] } }).value.actions.find((a) => a.id === 'attack')!.target!.options.find((o) => o.value === rat);
    expect(ratOption?.note).toBe("no AC given: the sheet's default AC 10 is used");
    // Its AC typed on the row patches that sheet; then the note is gone and the odds read it: STR 12 (+1) against 11, 10..20 is 11 of 20.
    const row = (s.world.ext['encounter'] as unknown as { combatants: { [k: string]: never } }).combatants[ready[3]!.id]!;
    const set = foeArmourCommand('osr', row, '11', s.world.characters[rat]);
    expect(set).toEqual({ ok: true, value: { type: 'character.sheet.set', characterId: rat, sheet: { ac: 11 }, patch: true } });
    s.run((set as { value: Command }).value);
    const after = s.engine.query(s.table, GM, 'osr.attackOdds', { attacker: kira, target: rat });
    expect(after.ok ? (after.value as { hit: number }).hit : after.error.message).toBeCloseTo(11 / 20, 10);
    // The roll reads the goblin's AC from its character: 001 "Attacking", STR 12 (+1) against AC 13.
    const g1 = ready[1]!.characterId!;
    expect(s.world.characters[g1]!.stats).toMatchObject({ ac: 13, hp: 7 });
    const odds = s.engine.query(s.table, GM, 'osr.attackOdds', { attacker: kira, target: g1 });
    if (!odds.ok) throw new Error(odds.error.message);
    // A d20 + 1 of 13 or more: 12..20 is 9 faces of 20.
    expect((odds.value as { hit: number }).hit).toBeCloseTo(9 / 20, 10);
  });

  it('OSR: a hidden foe from the bestiary gets a hidden character: the GM may target it, the player neither sees nor targets it', async () => {
    const s = table('osr');
    const seat = idOf(s.run({ type: 'seat.add', name: 'Ann' } as Command));
    const kira = idOf(s.run({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: seat, stats: { dex: 14, hp: 10, maxHp: 10, ac: 12 } }));
    const entry = { id: 'e1', name: 'Lurker', notes: '', block: { hp: 9, ac: 15, dex: 12 } };
    const d = draftsFromEntry(initiativeOf('osr'), entry as never, 1, true, makeId);
    if (!d.ok) throw new Error(d.message);
    const kiraDraft = draftsFrom(initiativeOf('osr'), { name: '', kind: 'pc', character: s.world.characters[kira]!, hp: '', hidden: false, init: {} }, makeId);
    if (!kiraDraft.ok) throw new Error('kira');
    const ready = await start(s, [...kiraDraft.value, ...d.value]);
    const lurker = ready[1]!.characterId!;
    expect(s.world.characters[lurker]).toMatchObject({ visibility: 'hidden', stats: { ac: 15, hp: 9, dex: 12 } });
    expect(targets(s, GM, 'osr', ready[0]!.id)).toEqual(['Lurker']);
    const player = { role: 'player', seatId: seat } as Viewer;
    expect(targets(s, player, 'osr', ready[0]!.id)).toEqual([]);
    expect(JSON.stringify(s.view(player))).not.toContain('Lurker');
  });

  it('36th Way: an Ogre typed with AC 14, PD 13, MD 10 and 20 HP gets a sheet keyed by its combatant and is the hero\'s target', async () => {
    const s = table('36th-way');
    const vesk = idOf(s.run({ type: 'character.add', name: 'Vesk', kind: 'pc' }));
    s.run({ type: '36th-way.sheet.set', sheet: { id: 'vesk', name: 'Vesk', kind: 'pc', characterId: vesk, level: 1, volition: 3, ac: 15, pd: 12, md: 11, maxHp: 30 } } as Command);
    const ogre = typed(s, 'Ogre', '20', { ac: '14', pd: '13', md: '10' }, false, { band: 'medium' });
    const hero: Draft = { id: 'vesk', name: 'Vesk', kind: 'pc', characterId: vesk, hp: null, hidden: false, init: { band: 'fast' } };
    const ready = await start(s, [hero, ...ogre]);
    const sheet = (s.world.ext['36th-way'] as { sheets: { [k: string]: { [k: string]: Json } } }).sheets[ready[1]!.id]!;
    expect(sheet).toMatchObject({ name: 'Ogre', kind: 'npc', ac: 14, pd: 13, md: 10, maxHp: 20 });
    expect(targets(s, GM, '36th-way', 'vesk')).toEqual(['Ogre']);
    // Sent again (a second Add), nothing is overwritten: the foe has its sheet now.
    expect(foeSheetCommand(s.world, ready[1]!)).toBeNull();
  });

  it('teams: a Raider with evasion 6 and 10 HP gets a sheet and is Boudica\'s target', async () => {
    const s = table('teams');
    const hero: Draft = { id: 'boudica', name: 'Boudica', kind: 'pc', characterId: null, hp: null, hidden: false, init: { team: 'players' } };
    const raider = typed(s, 'Raider', '10', { evasion: '6' }, false, { team: 'raiders' });
    const ready = await start(s, [hero, ...raider]);
    s.run({ type: 'character.sheet.set', characterId: 'boudica', sheet: { name: 'Boudica', attributes: { strength: 6 }, skills: { combat: 6 }, items: { spear: { name: 'spear', weapon: { attributes: ['strength'], damage: 4 } } } } } as Command);
    const sheet = (s.world.ext['teams'] as { sheets: { [k: string]: { [k: string]: Json } } }).sheets[ready[1]!.id]!;
    expect(sheet).toMatchObject({ name: 'Raider', evasion: 6, maxHealth: 10, health: 10 });
    expect(targets(s, GM, 'teams', 'boudica')).toEqual(['Raider']);
  });

  it('the Kleptonomicon needs nothing more: any foe on the tracker is a target (a typed Defense stays on the combatant)', async () => {
    const s = table('kleptonomicon');
    const d = typed(s, 'Guard x2', '', { defense: '9' });
    expect(d.map((x) => foeCharacterCommand('kleptonomicon', x) ?? foeSheetCommand(s.world, x))).toEqual([null, null]);
    expect(d.map((x) => x.extra)).toEqual([{ defense: 9 }, { defense: 9 }]);
  });

  it("the Kleptonomicon: a typed foe's Basic Attack modifier and damage are what its attack form and odds start from (review 13 #3: it opened at 0% with no dice)", async () => {
    const s = table('kleptonomicon');
    const seat = idOf(s.run({ type: 'seat.add', name: 'Ann' } as Command));
    const kira = idOf(s.run({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: seat, stats: { edgeSave: 2, defense: 12, hp: 10, maxHp: 10 } }));
    s.run({ type: 'kleptonomicon.startEpisode' } as Command);
    s.run({ type: 'kleptonomicon.freeplay' } as Command);
    const kiraDraft = draftsFrom(initiativeOf('kleptonomicon'), { name: '', kind: 'pc', character: s.world.characters[kira]!, hp: '', hidden: false, init: {} }, makeId);
    if (!kiraDraft.ok) throw new Error('kira');
    const armed = typed(s, 'Goblin', '6', { defense: '11', attackModifier: '3', attackDamage: '1d6+1' }, false, { edgeSave: '0' });
    const bare = typed(s, 'Rat', '3', { defense: '5' }, false, { edgeSave: '0' });
    await start(s, [...kiraDraft.value, ...armed, ...bare]);
    const enc = s.world.ext['encounter'] as { combatants: { [id: string]: { id: string; name: string; characterId: string | null } } };
    const idNamed = (name: string) => Object.values(enc.combatants).find((c) => c.name === name)!.id;
    const form = (who: string) => {
      const r = s.engine.query(s.table, GM, 'kleptonomicon.actions', { combatantId: idNamed(who) });
      if (!r.ok) throw new Error(r.error.message);
      const a = (r.value as { actions: { id: string; numbers: { field: string; value: number }[]; texts: { field: string; value: string }[] }[] }).actions.find((x) => x.id === 'attack')!;
      return { modifier: a.numbers.find((n) => n.field === 'modifier')!.value, damage: a.texts.find((t) => t.field === 'damage')!.value };
    };
    expect(form('Goblin')).toEqual({ modifier: 3, damage: '1d6+1' });
    expect(form('Rat')).toEqual({ modifier: 0, damage: '' });
    const odds = (who: string) => {
      const r = s.engine.query(s.table, GM, 'kleptonomicon.attackOdds', { attackerId: idNamed(who), targetId: idNamed('Kira') });
      if (!r.ok) throw new Error(r.error.message);
      return (r.value as { pass: number }).pass;
    };
    // Defense 12 with +3: the die must read 9 (2 in 20) or land a won coin-flip 10 (1 in 20); with +0 no die reaches 12.
    expect(odds('Goblin')).toBeCloseTo(3 / 20, 10);
    expect(odds('Rat')).toBe(0);
    // Players never read a foe's Basic Attack numbers (ADR 33): they stay on the combatant, out of a seat's view.
    const seen = JSON.stringify(s.engine.view(s.table, { role: 'player', seatId: seat }));
    expect(seen).not.toContain('1d6+1');
  });
});

describe('an AC from the row (OSR foe that joined as a name)', () => {
  it('makes the character it plays with its AC, HP and DEX, as hidden as the foe; refuses a bad AC in words; none for a PC, a linked foe or another ruleset', () => {
    const foe = { id: 'cb-1', name: 'Goblin', kind: 'npc' as const, side: 'foes', characterId: null, stats: { hp: 3, maxHp: 5, dex: 8 }, visibility: 'hidden' as const, incapacitated: false, unsurprisable: false, placement: { dex: 8 }, joined: 1, readied: null };
    expect(foeArmourCommand('osr', foe as never, '12')).toEqual({ ok: true, value: { type: 'character.add', name: 'Goblin', kind: 'npc', visibility: 'hidden', stats: { ac: 12, hp: 3, maxHp: 5, dex: 8 } } });
    expect(foeArmourCommand('osr', foe as never, '31')).toEqual({ ok: false, message: 'AC must be a whole number from 0 to 30.' });
    expect(foeArmourCommand('osr', foe as never, ' ')).toEqual({ ok: false, message: 'Type the AC first (a whole number from 0 to 30).' });
    expect(foeArmourCommand('osr', { ...foe, characterId: 'ch-1' } as never, '12')).toBe(null);
    expect(foeArmourCommand('osr', { ...foe, characterId: 'ch-1' } as never, '12', { stats: { ac: 13 } })).toBe(null);
    expect(foeArmourCommand('osr', { ...foe, characterId: 'ch-1' } as never, '12', { stats: { hp: 3 } })).toEqual({ ok: true, value: { type: 'character.sheet.set', characterId: 'ch-1', sheet: { ac: 12 }, patch: true } });
    expect(foeArmourCommand('osr', { ...foe, kind: 'pc' } as never, '12')).toBe(null);
    expect(foeArmourCommand('teams', foe as never, '12')).toBe(null);
  });
});
