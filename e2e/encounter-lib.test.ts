// The encounter builder's and tracker's helpers against the real rulesets in
// the engine (no browser): "Goblin x6", the one encounter.start that "Roll
// initiative" sends for each ruleset's own turn order (accepted, and the
// order it gives is the rule's), "Previous turn" as the undo of a turn
// change, the damage box's commands, and refusals in words.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { scenario, seededRng, sheetModule, type Character, type Scenario } from '@tablekeeper/engine';
import { engineFor, kleptonomicon, osr, resolveSettings, teams, thirtySixthWay } from '@tablekeeper/rulesets';
import { deadCharacters, keptSheetTrack, lifeFlags, restsOf } from '@tablekeeper/rulesets/browser';
import { addCommands, draftsFrom, edgeGroups, expandGroup, initiativeOf, joinParty, MAX_GROUP, partyDrafts, placeCommand, startCommand, TWO_GROUPS, typeGroupOf, WHO_STARTS, withDrafts, type Draft } from '../packages/web/src/lib/initiative.ts';
import { canGoBack, conditionCommand, CUSTOM, durationChoices, nextCommand, yourTurn } from '../packages/web/src/lib/turns.ts';
import { damageCommand } from '../packages/web/src/lib/damage.ts';
import { conditionName, durationLabel, roundWords, tracksOf } from '../packages/web/src/lib/encounter.ts';
import { lingeringConditions } from '../packages/web/src/lib/lingering.ts';
import { forget, linkProblem, MAX_RECENT, readRecent, RECENT_KEY, remember, type RecentTable } from '../packages/web/src/lib/recent.ts';
import { looksLikeId, sentenceOf } from '../packages/web/src/lib/words.ts';
import { encounterOf } from '../packages/web/src/lib/encounter.ts';

let n = 0;
const ids = (kind: 'pc' | 'npc') => `${kind}-t${++n}`;
const table = (id: string, modules: Parameters<typeof scenario>[0]): Scenario => {
  const settings = resolveSettings(id);
  if (!settings.ok) throw new Error(settings.error.message);
  return scenario(modules, { rng: seededRng(7), rulesetId: id, settings: settings.value });
};
const rows = (s: Scenario, name: string, init: Record<string, string> = {}, extra: Partial<{ kind: 'pc' | 'npc'; hp: string; hidden: boolean; character: Character | null }> = {}): Draft[] => {
  const d = draftsFrom(initiativeOf(s.world.rulesetId), { name, kind: 'npc', character: null, hp: '', hidden: false, init, ...extra }, ids);
  if (!d.ok) throw new Error(d.message);
  return d.value;
};
/** Who acts, in order, for one round (defaults for every choice, GM's view). */
function round(s: Scenario): string[] {
  const names: string[] = [];
  const start = encounterOf(s.world)!.round;
  for (let guard = 0; guard < 200; guard++) {
    const enc = encounterOf(s.world)!;
    if (enc.round !== start) break;
    if (enc.pending) {
      s.run({ type: 'encounter.choose', id: enc.pending.default ?? enc.pending.options[0]! });
      continue;
    }
    if (!enc.current) break;
    names.push(enc.combatants[enc.current]!.name);
    s.run({ type: 'encounter.endTurn' });
  }
  return names;
}

describe('"Goblin x6"', () => {
  it('a count after x makes numbered foes; a plain name is one', () => {
    expect(expandGroup('Goblin x6')).toEqual({ ok: true, value: ['Goblin 1', 'Goblin 2', 'Goblin 3', 'Goblin 4', 'Goblin 5', 'Goblin 6'] });
    expect(expandGroup('  Cave  bear ×2 ')).toEqual({ ok: true, value: ['Cave bear 1', 'Cave bear 2'] });
    expect(expandGroup('Ogre x1')).toEqual({ ok: true, value: ['Ogre'] });
    expect(expandGroup('Rex')).toEqual({ ok: true, value: ['Rex'] });
    expect(expandGroup('Wolf x0')).toEqual({ ok: false, message: `A group may have 1 to ${MAX_GROUP} foes; "Wolf x0" asks for 0.` });
    expect(expandGroup('Rat x51').ok).toBe(false);
    expect(expandGroup('')).toEqual({ ok: false, message: 'Type a name (add "x6" for six of them).' });
  });

  it('property: N from 1 to 50 gives exactly N distinct names, each starting with the base', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,20}[A-Za-z]$/), fc.integer({ min: 1, max: MAX_GROUP }), (base, k) => {
        const r = expandGroup(`${base} x${k}`);
        expect(r.ok).toBe(true);
        const names = (r as { value: string[] }).value;
        expect(names).toHaveLength(k);
        expect(new Set(names).size).toBe(k);
        for (const x of names) expect(x.startsWith(base.replace(/\s+/g, ' ').trim())).toBe(true);
      }),
    );
  });

  it('bad numbers are sentences naming the field', () => {
    const s = table('osr', osr.ruleset.modules);
    const m = initiativeOf('osr');
    expect(draftsFrom(m, { name: 'Orc', kind: 'npc', character: null, hp: '0', hidden: false, init: {} })).toEqual({ ok: false, message: 'HP must be a whole number from 1 to 10000.' });
    expect(draftsFrom(m, { name: 'Orc', kind: 'npc', character: null, hp: '', hidden: false, init: { dex: '31' } })).toEqual({ ok: false, message: 'DEX must be a whole number from 1 to 30.' });
    expect(draftsFrom(initiativeOf('36th-way'), { name: 'Orc', kind: 'npc', character: null, hp: '', hidden: false, init: { band: 'ludicrous' } })).toEqual({
      ok: false,
      message: 'Band must be one of very fast, fast, medium, slow, very slow.',
    });
    expect(s.world.rulesetId).toBe('osr');
  });
});

describe('"Roll initiative": one encounter.start by the ruleset’s own order', () => {
  it('OSR: highest DEX first, ties to the PCs, the DEX read from the sheet when none is typed (001 "Initiative")', () => {
    const s = table('osr', osr.ruleset.modules);
    s.run({ type: 'character.add', name: 'Kira', kind: 'pc', stats: { dex: 14, hp: 9 } });
    const kira = Object.values(s.world.characters)[0]!;
    const party = partyDrafts(initiativeOf('osr'), Object.values(s.world.characters), null, ids);
    expect(party.map((d) => [d.name, d.init['dex']])).toEqual([['Kira', 14]]);
    const goblins = rows(s, 'Goblin x3', { dex: '14' }, { hp: '7' });
    const wolf = rows(s, 'Wolf', { dex: '16' }, { hp: '11', hidden: true });
    const cmd = startCommand(initiativeOf('osr'), [...party, ...goblins, ...wolf], s.world.characters);
    expect(cmd.ok).toBe(true);
    s.run((cmd as { value: { type: string } }).value);
    const enc = encounterOf(s.world)!;
    // The character keeps its HP on the sheet; typed HP lands on the foes.
    expect(Object.values(enc.combatants).find((c) => c.characterId === kira.id)!.stats['hp']).toBeUndefined();
    expect(Object.values(enc.combatants).find((c) => c.name === 'Goblin 2')!.stats).toMatchObject({ hp: 7, maxHp: 7, dex: 14 });
    expect(Object.values(enc.combatants).find((c) => c.name === 'Wolf')!.visibility).toBe('hidden');
    expect([enc.combatants[enc.current!]!.name, ...round(s).slice(1)]).toEqual(['Wolf', 'Kira', 'Goblin 1', 'Goblin 2', 'Goblin 3']);
    // Adjust during the Wolf's turn: Goblin 3 moves up to 20, goes next this round and first in the next.
    const g3 = Object.values(encounterOf(s.world)!.combatants).find((c) => c.name === 'Goblin 3')!.id;
    s.run((placeCommand(initiativeOf('osr'), g3, '20') as { value: { type: string } }).value);
    expect(round(s)).toEqual(['Wolf', 'Goblin 3', 'Kira', 'Goblin 1', 'Goblin 2']);
    expect(round(s)).toEqual(['Goblin 3', 'Wolf', 'Kira', 'Goblin 1', 'Goblin 2']);
  });

  it('36th Way: bands fastest first, PCs before enemies in a band (002 "Initiative Bands" example: Fast PC, Medium PCs, Medium enemies, Slow PCs, Slow enemies)', () => {
    const s = table('36th-way', thirtySixthWay.ruleset.modules);
    const list = [
      ...rows(s, 'Ann', { band: 'fast' }, { kind: 'pc' }),
      ...rows(s, 'Bo', { band: 'medium' }, { kind: 'pc' }),
      ...rows(s, 'Orc x2', { band: 'medium' }),
      ...rows(s, 'Cy', { band: 'slow' }, { kind: 'pc' }),
      ...rows(s, 'Rat x3', { band: 'slow' }),
    ];
    s.run((startCommand(initiativeOf('36th-way'), list, {}) as { value: { type: string } }).value);
    expect(round(s)).toEqual(['Ann', 'Bo', 'Orc 1', 'Orc 2', 'Cy', 'Rat 1', 'Rat 2', 'Rat 3']);
  });

  it('teams: the team the GM names starts, then the teams alternate (003 "Initiative and Rounds")', () => {
    const s = table('teams', teams.ruleset.modules);
    const list = [...rows(s, 'Ann', {}, { kind: 'pc' }), ...rows(s, 'Bo', {}, { kind: 'pc' }), ...rows(s, 'Thug x2')];
    expect(list.map((d) => d.init['team'])).toEqual(['Party', 'Party', 'Foes', 'Foes']);
    const cmd = startCommand(initiativeOf('teams'), list, {}, { initiating: 'Foes' });
    expect((cmd as { value: { params: unknown } }).value.params).toEqual({ teamOrder: ['Foes', 'Party'] });
    s.run((cmd as { value: { type: string } }).value);
    expect(round(s)).toEqual(['Thug 1', 'Ann', 'Thug 2', 'Bo']);
  });

  it('teams: with two teams lined up and none named, the start is refused in words; one team starts itself (003 gives no default)', () => {
    const s = table('teams', teams.ruleset.modules);
    const list = [...rows(s, 'Ann', {}, { kind: 'pc' }), ...rows(s, 'Thug x2')];
    expect(startCommand(initiativeOf('teams'), list, {})).toEqual({ ok: false, message: WHO_STARTS });
    expect(WHO_STARTS).toMatch(/^Choose who starts the fight/);
    // A team that is not lined up is no answer either.
    expect(startCommand(initiativeOf('teams'), list, {}, { initiating: 'Bandits' })).toEqual({ ok: false, message: WHO_STARTS });
    const alone = startCommand(initiativeOf('teams'), rows(s, 'Thug x2'), {});
    expect(alone.ok && alone.value.params).toEqual({ teamOrder: ['Foes'] });
    // Foes joining a running fight need no answer: the order is already set.
    expect(addCommands(initiativeOf('teams'), rows(s, 'Thug x1'), { combatants: {}, seq: null } as never, {})).toHaveLength(1);
  });

  it('Kleptonomicon: the engine rolls each PC’s Edge Saves against 2-4 foe groups; one kind of foe is split in two (004 "Turn Order")', () => {
    const s = table('kleptonomicon', kleptonomicon.ruleset.modules);
    s.run({ type: 'kleptonomicon.startEpisode' });
    s.run({ type: 'kleptonomicon.freeplay' });
    const list = [...rows(s, 'Ann', { edgeSave: '2' }, { kind: 'pc' }), ...rows(s, 'Goblin x4', { edgeSave: '1' })];
    expect(list.slice(1).map((d) => d.init['creatureType'])).toEqual(['Goblin', 'Goblin', 'Goblin', 'Goblin']);
    expect(edgeGroups(list)).toEqual([list.slice(1, 3).map((d) => d.id), list.slice(3).map((d) => d.id)]);
    s.run((startCommand(initiativeOf('kleptonomicon'), list, {}) as { value: { type: string } }).value);
    const enc = encounterOf(s.world)!;
    const ann = Object.values(enc.combatants).find((c) => c.name === 'Ann')!;
    const p = ann.placement as { slot: number; rolls: { score: number; failed: boolean }[] };
    // The slot is right after the first group whose Edge Save failed (Score 6 or lower), or first if none failed.
    const firstFail = p.rolls.findIndex((r) => r.failed);
    expect(p.slot).toBe(firstFail < 0 ? 0 : firstFail + 1);
    const order = round(s);
    expect(order).toHaveLength(5);
    const goblins = order.filter((x) => x !== 'Ann');
    expect(goblins).toEqual(['Goblin 1', 'Goblin 2', 'Goblin 3', 'Goblin 4']);
    expect(order.indexOf('Ann')).toBe(p.slot === 0 ? 0 : p.slot * 2);
  });

  it('Kleptonomicon: the GM regroups the foes into 2-4 Edge Save groups (004 "Turn Order"); unpicked foes stay in their type\'s group', () => {
    const s = table('kleptonomicon', kleptonomicon.ruleset.modules);
    s.run({ type: 'kleptonomicon.startEpisode' });
    s.run({ type: 'kleptonomicon.freeplay' });
    const [ann, orc, gob1, gob2, bat] = [...rows(s, 'Ann', { edgeSave: '2' }, { kind: 'pc' }), ...rows(s, 'Orc', { creatureType: 'Orc', edgeSave: '3' }), ...rows(s, 'Goblin x2', { edgeSave: '1' }), ...rows(s, 'Bat', { creatureType: 'Bat', edgeSave: '0' })] as [Draft, Draft, Draft, Draft, Draft];
    // By type, best Edge Save first: Orc (3), the Goblins (1), the Bat (0); the builder shows each foe's number.
    expect(edgeGroups([ann, orc, gob1, gob2, bat])).toEqual([[orc.id], [gob1.id, gob2.id], [bat.id]]);
    expect([orc, gob1, gob2, bat].map((d) => typeGroupOf([ann, orc, gob1, gob2, bat], d.id))).toEqual([1, 2, 2, 3]);
    expect(typeGroupOf([ann, orc], ann.id)).toBeNull();
    // The Bat joins the Orc in group 1, Goblin 2 goes to group 4: group 3 is left empty and drops out, the order stays.
    const picked = [ann, orc, gob1, { ...gob2, edgeGroup: 4 }, { ...bat, edgeGroup: 1 }];
    expect(edgeGroups(picked)).toEqual([[orc.id, bat.id], [gob1.id], [gob2.id]]);
    const start = startCommand(initiativeOf('kleptonomicon'), picked, {});
    expect(start).toMatchObject({ ok: true, value: { params: { groups: [[orc.id, bat.id], [gob1.id], [gob2.id]] } } });
    s.run((start as { value: { type: string } }).value);
    const placed = encounterOf(s.world)!.combatants;
    expect([orc, bat, gob1, gob2].map((d) => placed[d.id]!.placement)).toEqual([{ group: 0 }, { group: 0 }, { group: 1 }, { group: 2 }]);
    // Every foe in one group is refused in words before anything is rolled; a lone foe needs only its one group.
    const one = [ann, ...[orc, gob1, gob2, bat].map((d) => ({ ...d, edgeGroup: 2 }))];
    expect(startCommand(initiativeOf('kleptonomicon'), one, {})).toEqual({ ok: false, message: TWO_GROUPS });
    expect(startCommand(initiativeOf('kleptonomicon'), [ann, { ...orc, edgeGroup: 3 }], {})).toMatchObject({ ok: true, value: { params: { groups: [[orc.id]] } } });
  });

  it('OSR: a PC who joins the table after foes were lined up comes in before them, and the fight orders everyone by DEX', () => {
    const s = table('osr', osr.ruleset.modules);
    s.run({ type: 'character.add', name: 'Kira', kind: 'pc', stats: { dex: 14, hp: 9 } });
    const first = partyDrafts(initiativeOf('osr'), Object.values(s.world.characters), null, ids);
    const goblins = rows(s, 'Goblin x2', { dex: '12' }, { hp: '7' });
    s.run({ type: 'character.add', name: 'Dorn', kind: 'pc', stats: { dex: 16, hp: 11 } });
    const dorn = Object.values(s.world.characters).filter((c) => c.name === 'Dorn');
    const lined = joinParty([...first, ...goblins], partyDrafts(initiativeOf('osr'), dorn, null, ids));
    expect(lined.map((d) => d.name)).toEqual(['Kira', 'Dorn', 'Goblin 1', 'Goblin 2']);
    // Joining twice, or a PC already lined up, adds nobody; with no PC lined up the newcomer leads.
    expect(joinParty(lined, partyDrafts(initiativeOf('osr'), dorn, null, ids)).map((d) => d.name)).toEqual(['Kira', 'Dorn', 'Goblin 1', 'Goblin 2']);
    expect(joinParty(goblins, first).map((d) => d.name)).toEqual(['Kira', 'Goblin 1', 'Goblin 2']);
    // Picking a PC already lined up again updates their row in place (same row id) with what was typed; others are added.
    const kiraAgain = draftsFrom(initiativeOf('osr'), { name: '', kind: 'pc', character: Object.values(s.world.characters).find((c) => c.name === 'Kira')!, hp: '', hidden: false, init: { dex: '17' } }, ids);
    if (!kiraAgain.ok) throw new Error(kiraAgain.message);
    const updated = withDrafts(lined, [...kiraAgain.value, ...rows(s, 'Orc', { dex: '9' }, { hp: '9' })]);
    expect(updated.map((d) => d.name)).toEqual(['Kira', 'Dorn', 'Goblin 1', 'Goblin 2', 'Orc']);
    expect(updated[0]!.id).toBe(lined[0]!.id);
    expect(updated[0]!.init['dex']).toBe(17);
    expect(updated.slice(1, 4)).toEqual(lined.slice(1, 4));
    const cmd = startCommand(initiativeOf('osr'), lined, s.world.characters);
    s.run((cmd as { value: { type: string } }).value);
    const enc = encounterOf(s.world)!;
    // 001 "Initiative": DEX 16, then 14, then the goblins' 12.
    expect([enc.combatants[enc.current!]!.name, ...round(s).slice(1)]).toEqual(['Dorn', 'Kira', 'Goblin 1', 'Goblin 2']);
  });

  it('nothing lined up is a sentence, not a request', () => {
    expect(startCommand(initiativeOf('osr'), [], {})).toEqual({ ok: false, message: 'Add the party and at least one foe first.' });
  });
});

describe('turns and the damage box', () => {
  it('"Previous turn" is offered exactly when undo would take back a turn change, and it does', () => {
    const s = table('osr', osr.ruleset.modules);
    s.run((startCommand(initiativeOf('osr'), [...rows(s, 'Ann', { dex: '15' }, { kind: 'pc' }), ...rows(s, 'Orc', { dex: '9' }, { hp: '5' })], {}) as { value: { type: string } }).value);
    expect(canGoBack(s.view({ role: 'gm' }).undoLabel)).toBe(false);
    s.run({ type: 'encounter.endTurn' });
    const v = s.view({ role: 'gm' });
    expect(canGoBack(v.undoLabel)).toBe(true);
    expect(encounterOf(v.world)!.combatants[encounterOf(v.world)!.current!]!.name).toBe('Orc');
    s.run({ type: 'history.undo' });
    expect(encounterOf(s.world)!.combatants[encounterOf(s.world)!.current!]!.name).toBe('Ann');
    const orc = Object.values(encounterOf(s.world)!.combatants).find((c) => c.name === 'Orc')!.id;
    s.run((damageCommand(s.world, orc, 'damage', '2') as { value: { type: string } }).value);
    expect(canGoBack(s.view({ role: 'gm' }).undoLabel)).toBe(false);
  });

  it('a foe typed down to 0 is defeated and skipped; healed, it is back (the kernel’s rule, through the box’s commands)', () => {
    const s = table('osr', osr.ruleset.modules);
    s.run((startCommand(initiativeOf('osr'), [...rows(s, 'Ann', { dex: '15' }, { kind: 'pc' }), ...rows(s, 'Goblin x2', { dex: '9' }, { hp: '7' })], {}) as { value: { type: string } }).value);
    const g1 = Object.values(encounterOf(s.world)!.combatants).find((c) => c.name === 'Goblin 1')!.id;
    expect(damageCommand(s.world, g1, 'damage', '7')).toEqual({ ok: true, value: { type: 'encounter.damage', characterId: g1, amount: 7 } });
    s.run((damageCommand(s.world, g1, 'damage', '7') as { value: { type: string } }).value);
    expect(round(s)).toEqual(['Ann', 'Goblin 2']);
    s.run((damageCommand(s.world, g1, 'heal', '3') as { value: { type: string } }).value);
    expect(round(s)).toEqual(['Ann', 'Goblin 1', 'Goblin 2']);
    for (const bad of ['', '0', '-3', '2.5', 'seven', '100001']) expect(damageCommand(s.world, g1, 'damage', bad)).toEqual({ ok: false, message: 'Type a whole number from 1 to 100000, then press Damage.' });
  });

  it('with a 36th Way sheet, damage goes through the ruleset (its resistances apply), not the plain HP box', () => {
    const s = table('36th-way', thirtySixthWay.ruleset.modules);
    s.run((startCommand(initiativeOf('36th-way'), rows(s, 'Orc', { band: 'fast' }), {}) as { value: { type: string } }).value);
    const orc = encounterOf(s.world)!.roster[0]!;
    s.run({ type: '36th-way.sheet.set', sheet: { id: orc, name: 'Orc', kind: 'npc', level: 1, volition: 0, ac: 12, pd: 12, md: 12, maxHp: 20, abilities: [] } });
    expect(damageCommand(s.world, orc, 'damage', '6')).toEqual({ ok: true, value: { type: '36th-way.damage', targetId: orc, amount: 6 } });
    s.run((damageCommand(s.world, orc, 'damage', '6') as { value: { type: string } }).value);
    expect(engineFor('36th-way')).not.toBeNull();
    expect(JSON.stringify(s.world.ext)).toContain('"hp":14');
  });

  it('Heal on a dying 36th Way PC goes through her sheet: any healing counts up from 0 and ends dying (002); -1/30 healed 10 is 10/30', () => {
    const s = table('36th-way', thirtySixthWay.ruleset.modules);
    s.run((startCommand(initiativeOf('36th-way'), rows(s, 'Kira', { band: 'fast' }, { kind: 'pc' }), {}) as { value: { type: string } }).value);
    const kira = encounterOf(s.world)!.roster[0]!;
    s.run({ type: '36th-way.sheet.set', sheet: { id: kira, name: 'Kira', kind: 'pc', level: 1, volition: 0, ac: 12, pd: 12, md: 12, maxHp: 30, abilities: [] } });
    s.run({ type: '36th-way.damage', targetId: kira, amount: 31 });
    const sheetOf = () => (s.world.ext['36th-way'] as { sheets: Record<string, { hp: number; dying: unknown; recoveries: number }> }).sheets[kira]!;
    expect(sheetOf()).toMatchObject({ hp: -1 });
    expect(sheetOf().dying).not.toBeNull();
    const recoveries = sheetOf().recoveries;
    const cmd = damageCommand(s.world, kira, 'heal', '10');
    expect(cmd).toEqual({ ok: true, value: { type: '36th-way.heal', characterId: kira, how: 'amount', amount: 10 } });
    s.run((cmd as { value: { type: string } }).value);
    expect(sheetOf()).toMatchObject({ hp: 10, dying: null, recoveries });
    expect(s.world.log.at(-1)!.text).toBe('Kira healed 10 HP (by the GM): now 10 HP, back from dying.');
    // Only the GM names an amount; a player's heal spends a recovery.
    expect(s.fail({ type: '36th-way.heal', characterId: kira, how: 'amount', amount: 5 }, { role: 'player', seatId: 's1' }).message).toContain('only the GM heals by a named amount');
    expect(s.fail({ type: '36th-way.heal', characterId: kira, how: 'recovery', amount: 5 }).message).toBe('amount goes with how "amount" only');
  });

});

describe('tracker readings', () => {
  it('a Daggerheart sheet reads its marked slots only (2 of 6 HP marked), never a stale generic HP beside them; all 6 marked is down', () => {
    expect(tracksOf({ hp: 6, maxHp: 6, hpMarked: 2, hpMax: 6, stressMarked: 1, stressMax: 6 }).map((t) => [t.label, t.value, t.max, t.states])).toEqual([
      ['HP marked', 2, 6, []],
      ['Stress marked', 1, 6, []],
    ]);
    expect(tracksOf({ hpMarked: 6, hpMax: 6 })[0]!.states).toEqual(['down']);
    // A Daggerheart PC keeps HP as slots only: an old invite's hp / maxHp is no second reading (review 6).
    expect(tracksOf({ hp: 7, maxHp: 7 }, 'daggerheart')).toEqual([]);
    expect(tracksOf({ hp: 7, maxHp: 7, hpMarked: 1, hpMax: 7 }, 'daggerheart').map((t) => [t.label, t.value, t.max])).toEqual([['HP marked', 1, 7]]);
    // A teams sheet: endurance and health, no generic HP beside them (a GM review finding: "HP 12/12" with "Health 4/12").
    expect(tracksOf({ hp: 12, maxHp: 12, endurance: 0, maxEndurance: 6, health: 4, maxHealth: 12 }).map((t) => t.label)).toEqual(['Endurance', 'Health']);
    // Other rulesets keep their HP as it was.
    expect(tracksOf({ hp: 3, maxHp: 10 }).map((t) => [t.label, t.value, t.states])).toEqual([['HP', 3, []]]);
  });

  it('003 "Damage": Boudica at Endurance 0/12 with Health 7/12 is harmed and bloodied, never down; Health 0 is down; 6 of 12 endurance is harmed, 7 is not', () => {
    expect(tracksOf({ endurance: 0, maxEndurance: 12, health: 7, maxHealth: 12 }).map((t) => [t.label, t.states])).toEqual([
      ['Endurance', ['harmed']],
      ['Health', ['bloodied']],
    ]);
    expect(tracksOf({ endurance: 0, maxEndurance: 12, health: 0, maxHealth: 12 })[1]!.states).toEqual(['down']);
    expect(tracksOf({ endurance: 6, maxEndurance: 12, health: 12, maxHealth: 12 }).map((t) => t.states)).toEqual([['harmed'], []]);
    expect(tracksOf({ endurance: 7, maxEndurance: 12, health: 12, maxHealth: 12 }).map((t) => t.states)).toEqual([[], []]);
  });

  it('001 "Death & Injury": a dead OSR PC reads dead, not "HP 0/9 down"; a dying one reads down and dying', () => {
    expect(tracksOf({ hp: 0, maxHp: 9, dead: true }, 'osr')[0]!.states).toEqual(['dead']);
    expect(tracksOf({ hp: 0, maxHp: 9, dying: true }, 'osr')[0]!.states).toEqual(['down', 'dying']);
  });

  it('review 13 #6: a dying 36th Way PC reads dying, not down, with the death saves rolled and failed so far (002 "Dying and Death")', () => {
    const s = table('36th-way', thirtySixthWay.ruleset.modules);
    s.run({ type: '36th-way.sheet.set', sheet: { id: 'kira', name: 'Kira', kind: 'pc', level: 1, volition: 0, ac: 15, pd: 12, md: 11, maxHp: 20, abilities: [] } });
    s.run({ type: '36th-way.damage', targetId: 'kira', amount: 21 });
    const stats = keptSheetTrack(s.world, 'kira', null);
    const hp = tracksOf(stats, '36th-way')[0]!;
    expect(hp).toMatchObject({ label: 'HP', value: -1, max: 20, states: ['dying'] });
    // The table's setting 36th-way.deathSaveFailures (4 by default) says how many failures kill.
    expect(hp.note).toBe('death saves: 0 rolled, 0 failed (4 failed in this fight kill)');
  });

  it('review 13 #8: an unconscious teams PC reads unconscious, with what may come next (003 "Death")', () => {
    const stats = { endurance: 0, maxEndurance: 6, health: 5, maxHealth: 10, unconscious: true, lifeNote: 'cannot act until conscious again' };
    const [endurance] = tracksOf(stats, 'teams');
    expect(endurance).toMatchObject({ label: 'Endurance', states: ['harmed', 'unconscious'], note: 'cannot act until conscious again' });
  });
});

describe('the next line-up leaves the dead out (001 "Death & Injury")', () => {
  it("Bram died after the last fight: the party drafted for the next is Kira alone; the lifeFlags selector says Bram is dead", () => {
    const s = table('osr', osr.ruleset.modules);
    s.run({ type: 'character.add', name: 'Kira', kind: 'pc', stats: { dex: 14, hp: 9, maxHp: 9 } });
    s.run({ type: 'character.add', name: 'Bram', kind: 'pc', stats: { dex: 12, hp: 9, maxHp: 9 } });
    const [kira, bram] = Object.values(s.world.characters);
    s.run({ type: 'osr.damage', targetId: bram!.id, amount: 9 });
    s.run({ type: 'clock.advance', unit: 'time', count: 0, seconds: 60 });
    expect(deadCharacters(s.world)).toEqual([bram!.id]);
    expect(lifeFlags(s.world, bram!.id)).toEqual({ dead: true });
    expect(lifeFlags(s.world, kira!.id)).toEqual({});
    const party = partyDrafts(initiativeOf('osr'), Object.values(s.world.characters), null, ids, deadCharacters(s.world));
    expect(party.map((d) => d.name)).toEqual(['Kira']);
  });
});

describe('the damage box on a teams sheet', () => {
  it('14 typeless empties endurance 12 and takes 2 health (003 "Damage"); Heal gives health back first, then endurance, each to its maximum', () => {
    const s = table('teams', [...teams.ruleset.modules, sheetModule(teams.ruleset.sheet!)]);
    s.run((startCommand(initiativeOf('teams'), rows(s, 'Goblin', { team: 'Foes' }), {}) as { value: { type: string } }).value);
    const g = encounterOf(s.world)!.roster[0]!;
    s.run({ type: 'character.sheet.set', characterId: g, sheet: { name: 'Goblin', evasion: 6, maxEndurance: 12, maxHealth: 12 } });
    const step = (kind: 'damage' | 'heal', n: string) => {
      const c = damageCommand(s.world, g, kind, n);
      if (!c.ok) throw new Error(c.message);
      s.run(c.value as never);
    };
    const tracks = () => JSON.parse(JSON.stringify(s.world.ext['teams'])).sheets[g] as { endurance: number; health: number };
    step('damage', '14');
    expect([tracks().endurance, tracks().health]).toEqual([0, 10]);
    expect(damageCommand(s.world, g, 'heal', '5')).toEqual({ ok: true, value: { type: 'teams.setTrack', characterId: g, field: 'health', value: 12 } });
    step('heal', '5');
    step('heal', '5');
    expect([tracks().endurance, tracks().health]).toEqual([5, 12]);
    step('heal', '20');
    expect(damageCommand(s.world, g, 'heal', '1')).toEqual({ ok: false, message: 'Nothing to heal: endurance and health are full.' });
  });
});

describe('refusals in words', () => {
  it('no codes, ids become names, a sentence with a full stop', () => {
    expect(sentenceOf({ code: 'RULE_ERROR', ruleCode: 'NOT_FOUND', message: 'no combatant "npc-m3k2x1-4" in this encounter' }, { 'npc-m3k2x1-4': 'Goblin 4' })).toBe('No combatant Goblin 4 in this encounter.');
    expect(sentenceOf({ code: 'RULE_ERROR', ruleCode: 'NOT_FOUND', message: 'no combatant "pc-zz9-1" in this encounter' })).toBe('No combatant that one in this encounter.');
    expect(sentenceOf({ code: 'VERSION_CONFLICT', message: 'version 4 is stale' })).toBe('Someone changed the table first; your screen is up to date now, so try again.');
    // A second N press, queued behind the first, names a turn that is over (ADR 46, 53).
    expect(sentenceOf({ code: 'RULE_ERROR', ruleCode: 'TURN_MOVED_ON', message: 'the turn of "pc-a1" is already over' })).toBe("That turn is already over (an action or an earlier press ended it), so nothing was ended: it is someone else's turn now.");
    // A command queued behind one of the person's own that was refused (ADR 46).
    expect(sentenceOf({ code: 'NOT_SENT', message: 'not sent: the change before it was refused' })).toBe('Not sent: the change before it was refused.');
    expect(sentenceOf({ code: 'RULE_ERROR', ruleCode: 'CANNOT_ADVANCE', message: 'nobody is able to act' })).toBe('Nobody left can act: end the encounter, or heal or revive someone.');
    expect(sentenceOf({ code: 'RULE_ERROR', ruleCode: 'DEAD', message: 'Kira is dead' })).toBe('Kira is dead.');
    expect(looksLikeId('Goblin')).toBe(false);
    expect(looksLikeId('cond12')).toBe(true);
  });
});

describe('N is never stuck on a prompt', () => {
  it('a waiting choice takes its default (GM order) or the first who may go; otherwise end or start a turn', () => {
    const s = table('36th-way', thirtySixthWay.ruleset.modules);
    s.run((startCommand(initiativeOf('36th-way'), [...rows(s, 'Ann', { band: 'fast' }, { kind: 'pc' }), ...rows(s, 'Bo', { band: 'fast' }, { kind: 'pc' }), ...rows(s, 'Orc', { band: 'slow' })], {}) as { value: { type: string } }).value);
    const enc = encounterOf(s.world)!;
    expect(enc.current).toBeNull();
    expect(enc.pending!.default).toBeNull();
    const cmd = nextCommand(enc);
    expect(cmd).toEqual({ type: 'encounter.choose', id: enc.pending!.options[0] });
    s.run(cmd);
    // It names whose turn it ends, so a stale second press is refused instead of ending the next turn (ADR 53).
    expect(nextCommand(encounterOf(s.world)!)).toEqual({ type: 'encounter.endTurn', id: enc.pending!.options[0] });
    expect(nextCommand({ current: null, pending: null })).toEqual({ type: 'encounter.advance' });
  });
});

describe('the condition picker', () => {
  it('offers the ruleset’s own catalogue from the view: all fifteen of The 36th Way’s (002 "Conditions and Effects")', () => {
    const s = table('36th-way', thirtySixthWay.ruleset.modules);
    s.run((startCommand(initiativeOf('36th-way'), rows(s, 'Orc', { band: 'fast' }), {}) as { value: { type: string } }).value);
    const enc = encounterOf(s.view({ role: 'player', seatId: 'nobody' }).world) ?? encounterOf(s.view({ role: 'gm' }).world)!;
    const ids = enc.catalogue!.conditions.map((c) => c.id);
    for (const id of thirtySixthWay.TEXT_CONDITION_IDS) expect(ids).toContain(id);
    expect(enc.catalogue!.saveEnds).toBe(true);
    expect(conditionName(enc, 'ongoing')).toBe('Ongoing Damage');
    expect(conditionName(enc, 'custom:Paralyzed')).toBe('Paralyzed');
    expect(durationChoices(true).map(([v]) => v)).toContain('saveEnds');
    expect(durationChoices(false).map(([v]) => v)).not.toContain('saveEnds');
  });

  it('sends what the kernel accepts: a catalogue condition for rounds, a custom one until removed; mistakes are sentences', () => {
    const s = table('osr', osr.ruleset.modules);
    s.run((startCommand(initiativeOf('osr'), rows(s, 'Orc', { dex: '9' }, { hp: '5' }), {}) as { value: { type: string } }).value);
    const orc = encounterOf(s.world)!.roster[0]!;
    const a = conditionCommand(orc, { choice: 'concentrating', custom: '', duration: 'rounds', rounds: '2', stacks: '1' });
    expect(a).toEqual({ ok: true, value: { type: 'condition.apply', targetId: orc, condition: 'concentrating', duration: { kind: 'rounds', rounds: 2 } } });
    s.run((a as { value: { type: string } }).value);
    const b = conditionCommand(orc, { choice: CUSTOM, custom: ' Paralyzed ', duration: 'indefinite', rounds: '', stacks: '' });
    s.run((b as { value: { type: string } }).value);
    const enc = encounterOf(s.view({ role: 'gm' }).world)!;
    expect(Object.values(enc.conditions).map((c) => [conditionName(enc, c.defId), durationLabel(c.duration)])).toEqual([
      ['Concentrating', '2 rounds left'],
      ['Paralyzed', ''],
    ]);
    expect(conditionCommand(orc, { choice: CUSTOM, custom: '', duration: 'indefinite', rounds: '', stacks: '' })).toEqual({ ok: false, message: 'Type a name for the condition (up to 40 characters).' });
    expect(conditionCommand(orc, { choice: 'concentrating', custom: '', duration: 'rounds', rounds: '0', stacks: '' })).toEqual({ ok: false, message: 'Rounds must be a whole number from 1 to 1000.' });
    expect(durationLabel({ kind: 'turnEnd', of: orc }, { [orc]: 'Orc' })).toBe("until the end of Orc's next turn");
    // A turn timed by someone this viewer cannot name reads "their", never an id.
    expect(durationLabel({ kind: 'turnEnd', of: 'npc-secret-1' })).toBe('until the end of their next turn');
  });
});

describe('recent tables on this device', () => {
  const memory = () => {
    const m = new Map<string, string>();
    return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), m };
  };
  const entry = (i: number, role: RecentTable['role'] = 'gm'): RecentTable => ({ hash: `${role === 'gm' ? 'gm' : 'seat'}=token-${String(i).padStart(8, '0')}`, name: `Table ${i}`, rulesetId: 'osr', role, seen: 1000 + i });

  it('remembers each link once, newest first, keeps at most twenty, and forgets on request', () => {
    const st = memory();
    for (let i = 0; i < 25; i++) remember(st, entry(i));
    remember(st, { ...entry(3), seen: 5000 });
    const list = readRecent(st);
    expect(list).toHaveLength(MAX_RECENT);
    expect(list[0]!.name).toBe('Table 3');
    expect(new Set(list.map((r) => r.hash)).size).toBe(MAX_RECENT);
    expect(forget(st, entry(3).hash).map((r) => r.name)).not.toContain('Table 3');
  });

  it('anything odd in storage is skipped, never thrown; a broken store still lets the table open', () => {
    const st = memory();
    st.m.set(RECENT_KEY, '{not json');
    expect(readRecent(st)).toEqual([]);
    st.m.set(RECENT_KEY, JSON.stringify([{ hash: 'javascript:alert(1)', name: 'x', rulesetId: 'osr', role: 'gm', seen: 1 }, entry(1)]));
    expect(readRecent(st).map((r) => r.name)).toEqual(['Table 1']);
    const full = { getItem: () => null, setItem: () => { throw new Error('QuotaExceededError'); } };
    expect(remember(full, entry(2))).toEqual([entry(2)]);
    expect(readRecent(null)).toEqual([]);
  });

  it('a refused link says why and what to do', () => {
    expect(linkProblem(null)).toBe('This link does not open a table: it may be mistyped, revoked or expired. Ask the GM for a new link, or open a table from your recent tables.');
    expect(linkProblem('The GM revoked this seat; its link no longer works.')).toBe('The GM revoked this seat; its link no longer works. Ask the GM for a new link, or open a table from your recent tables.');
  });
});

describe('the phone’s "your turn"', () => {
  it('names the player’s own combatant when its turn is on, and nobody otherwise', () => {
    const s = table('osr', osr.ruleset.modules);
    s.run((startCommand(initiativeOf('osr'), [...rows(s, 'Ann', { dex: '15' }, { kind: 'pc' }), ...rows(s, 'Orc', { dex: '9' }, { hp: '5' })], {}) as { value: { type: string } }).value);
    const enc = encounterOf(s.world)!;
    const ann = enc.current!;
    expect(yourTurn(enc, [ann])).toBe('Ann');
    expect(yourTurn(enc, [])).toBeNull();
    s.run({ type: 'encounter.endTurn' });
    expect(yourTurn(encounterOf(s.world)!, [ann])).toBeNull();
    expect(yourTurn(null, [ann])).toBeNull();
  });
});

describe('adding foes mid-fight', () => {
  it('"Wolf x2" joins a running OSR fight at its DEX; a Kleptonomicon foe joins its creature type’s group', () => {
    const s = table('osr', osr.ruleset.modules);
    s.run((startCommand(initiativeOf('osr'), [...rows(s, 'Ann', { dex: '15' }, { kind: 'pc' }), ...rows(s, 'Orc', { dex: '9' }, { hp: '5' })], {}) as { value: { type: string } }).value);
    for (const c of addCommands(initiativeOf('osr'), rows(s, 'Wolf x2', { dex: '12' }, { hp: '11' }), encounterOf(s.world)!, {})) s.run(c);
    s.run({ type: 'encounter.endTurn' });
    expect(round(s)).toEqual(['Wolf 1', 'Wolf 2', 'Orc']);

    const k = table('kleptonomicon', kleptonomicon.ruleset.modules);
    k.run({ type: 'kleptonomicon.startEpisode' });
    k.run({ type: 'kleptonomicon.freeplay' });
    k.run((startCommand(initiativeOf('kleptonomicon'), [...rows(k, 'Ann', {}, { kind: 'pc' }), ...rows(k, 'Goblin', { creatureType: 'Goblin', edgeSave: '3' }), ...rows(k, 'Bat', { creatureType: 'Bat' })], {}) as { value: { type: string } }).value);
    const add = addCommands(initiativeOf('kleptonomicon'), rows(k, 'Bat', { creatureType: 'Bat' }), encounterOf(k.world)!, {});
    expect(add[0]).toMatchObject({ placement: { group: 1 } });
    k.run(add[0]!);
    expect(Object.values(encounterOf(k.world)!.combatants).filter((c) => c.name === 'Bat').map((c) => c.placement)).toEqual([{ group: 1 }, { group: 1 }]);
  });
});

describe('rests by the rules', () => {
  it('OSR: a safe night heals 1 HP per level and moves the clock; an unsafe one heals 1 (001 "Healing From Rest": a level 4 PC heals 4, or 1 in a dungeon)', () => {
    const s = table('osr', osr.ruleset.modules);
    s.run({ type: 'character.add', name: 'Kira', kind: 'pc', stats: { level: 4, hp: 10, maxHp: 20 } });
    const kira = Object.values(s.world.characters)[0]!.id;
    const [safe, unsafe] = restsOf('osr');
    const t0 = s.world.clock.seconds;
    s.run(safe!.command as { type: string });
    expect(s.world.characters[kira]!.stats['hp']).toBe(14);
    expect(s.world.clock.seconds).toBeGreaterThan(t0);
    s.run(unsafe!.command as { type: string });
    expect(s.world.characters[kira]!.stats['hp']).toBe(15);
  });

  it('36th Way: both rests are accepted between fights; other rulesets offer the clock’s rests only', () => {
    const s = table('36th-way', thirtySixthWay.ruleset.modules);
    for (const r of restsOf('36th-way')) s.run(r.command as { type: string });
    expect(s.world.clock.counts.shortRest).toBe(1);
    expect(s.world.clock.counts.longRest).toBe(1);
    expect(restsOf('teams')).toEqual([]);
  });
});

describe('conditions left by the last fight, against the next line-up (ADR 66)', () => {
  it('a lined-up character carries hers, one left out keeps hers until cleared, a bearer with no character has its end at the start', () => {
    const s = scenario(osr.ruleset.modules, { rng: seededRng(3), rulesetId: 'osr' });
    s.run({ type: 'character.add', name: 'Kira', kind: 'pc', stats: { maxHp: 9, hp: 9, dex: 14 } });
    s.run({ type: 'character.add', name: 'Bram', kind: 'pc', stats: { maxHp: 9, hp: 9, dex: 12 } });
    const [kira, bram] = ['Kira', 'Bram'].map((n) => Object.values(s.world.characters).find((c) => c.name === n)!.id) as [string, string];
    s.run({ type: 'encounter.start', combatants: [{ name: 'Kira', kind: 'pc', side: 'party', characterId: kira }, { name: 'Bram', kind: 'pc', side: 'party', characterId: bram }, { id: 'g3', name: 'Goblin 3', kind: 'npc', side: 'foes', stats: { dex: 8 } }] });
    s.run({ type: 'condition.apply', targetId: kira, condition: 'custom:Poisoned', duration: { kind: 'indefinite' } });
    s.run({ type: 'condition.apply', targetId: bram, condition: 'custom:Cursed', duration: { kind: 'indefinite' } });
    s.run({ type: 'condition.apply', targetId: 'g3', condition: 'custom:Dazed', duration: { kind: 'indefinite' } });
    // While the fight runs, nothing lingers yet.
    expect(lingeringConditions(s.world, encounterOf(s.world), [])).toEqual([]);
    s.run({ type: 'encounter.end' });
    const rows = lingeringConditions(s.world, encounterOf(s.world), [kira]);
    expect(rows.map((r) => [r.name, r.condition, r.lasts, r.stands])).toEqual([
      ['Bram', 'Cursed', 'until removed', 'absent'],
      ['Goblin 3', 'Dazed', 'until removed', 'ends'],
      ['Kira', 'Poisoned', 'until removed', 'carried'],
    ]);
    // The engine agrees: at the start Goblin 3's ends, the characters' stay; clearing Bram's takes it off.
    s.run({ type: 'condition.remove', conditionId: rows[0]!.conditionId });
    s.run({ type: 'encounter.start', combatants: [{ name: 'Kira', kind: 'pc', side: 'party', characterId: kira }, { id: 'orc', name: 'Orc', kind: 'npc', side: 'foes', stats: { dex: 3 } }] });
    expect(Object.values(encounterOf(s.world)!.conditions).map((c) => c.target)).toEqual([kira]);
  });
});

describe('roundWords (the tracker and the TV)', () => {
  it('says the round, the surprise round, or "Conflict" in a spotlight that keeps no rounds (no action tokens)', () => {
    expect(roundWords({ round: 3 }, { rulesetId: 'osr', settings: {} })).toBe('Round 3');
    expect(roundWords({ round: 0 }, { rulesetId: '36th-way', settings: {} })).toBe('Surprise round');
    expect(roundWords({ round: 1 }, { rulesetId: 'daggerheart', settings: {} })).toBe('Conflict');
    expect(roundWords({ round: 1 }, { rulesetId: 'daggerheart', settings: { 'daggerheart.actionTokens': 0 } })).toBe('Conflict');
    // With action tokens the spotlight has rounds: they end when nobody can pay (ADR 14).
    expect(roundWords({ round: 2 }, { rulesetId: 'daggerheart', settings: { 'daggerheart.actionTokens': 2 } })).toBe('Round 2');
  });
});
