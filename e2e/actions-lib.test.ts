// The actions panel's helpers against the real rulesets in the engine (no
// browser): the `<ns>.actions` answer read from a viewer's query, the form's
// defaults, the odds query it asks (answered, with the words it shows) and the
// command it sends (accepted, rolling the attack the odds were about).
import { describe, expect, it } from 'vitest';
import { scenario, seededRng, sheetModule, type Json, type Scenario, type Viewer } from '@tablekeeper/engine';
import { daggerheart, kleptonomicon, osr, teams, thirtySixthWay } from '@tablekeeper/rulesets';
import { actionsQueryOf } from '@tablekeeper/rulesets/browser';
import { actionsInputs, commandOf, describeActionOdds, formDone, formStays, initialForm, keepForm, oddsQueryOf, oneTap, payloadOf, picksOf, readActions, tickPick, type ActionForm, type TurnAction } from '../packages/web/src/lib/actions.ts';
import { percent } from '../packages/web/src/lib/attack.ts';

// Teams with the sheet module, as every table's engine has it (character.sheet.set, ADR 39).
const teamsModules = [...teams.ruleset.modules, sheetModule(teams.ruleset.sheet!)];
const GM: Viewer = { role: 'gm' };

function answer(s: Scenario, viewer: Viewer, combatantId: string) {
  const r = s.engine.query(s.table, viewer, actionsQueryOf(s.world.rulesetId)!, { combatantId });
  expect(r.ok, JSON.stringify(r)).toBe(true);
  return readActions((r as { value: Json }).value)!;
}
const pick = (s: Scenario, viewer: Viewer, combatantId: string, id: string): TurnAction => answer(s, viewer, combatantId).actions.find((a) => a.id === id)!;

function odds(s: Scenario, viewer: Viewer, a: TurnAction, f: ActionForm) {
  const q = oddsQueryOf(a, f)!;
  const r = s.engine.query(s.table, viewer, q.name, q.args);
  expect(r.ok, JSON.stringify(r)).toBe(true);
  return describeActionOdds(q.name, (r as { value: Json }).value)!;
}

function seatWithCharacter(s: Scenario, name: string): { seatId: string; ch: string } {
  s.run({ type: 'seat.add', name: `${name}'s player` });
  const seatId = Object.keys(s.world.seats).at(-1)!;
  s.run({ type: 'character.add', name, kind: 'pc', seatId });
  const ch = Object.values(s.world.characters).find((c) => c.name === name)!.id;
  return { seatId, ch };
}
const eventOf = (tx: unknown, type: string) => (tx as { events: { type: string; [k: string]: unknown }[] }).events.find((e) => e.type === type);

describe('actions panel helpers', () => {
  it('percent: one decimal when needed, never 0% or 100% for what can still happen', () => {
    expect(percent(135 / 216)).toBe('62.5%');
    expect(percent(0.5)).toBe('50%');
    expect(percent(1 / 216)).toBe('0.5%');
    expect(percent(1e-5)).toBe('<0.1%');
    expect(percent(1 - 1e-5)).toBe('>99.9%');
    expect([percent(0), percent(1)]).toEqual(['0%', '100%']);
  });

  it('each ruleset names its actions query in the browser entry; an unknown ruleset has none', () => {
    expect(['osr', '36th-way', 'teams', 'kleptonomicon', 'daggerheart'].map(actionsQueryOf)).toEqual(['osr.actions', '36th-way.actions', 'teams.actions', 'kleptonomicon.actions', 'daggerheart.actions']);
    expect(actionsQueryOf('chess')).toBeNull();
    expect(actionsQueryOf('__proto__')).toBeNull();
  });

  it('36th Way: the acting PC against the engaged Ogre; the query and 36th-way.attack agree on the roll; a player sees the same odds', () => {
    const s = scenario(thirtySixthWay.ruleset.modules, { rng: seededRng(3), rulesetId: '36th-way' });
    const { seatId, ch } = seatWithCharacter(s, 'Vesk');
    s.run({ type: '36th-way.sheet.set', sheet: { id: 'vesk', name: 'Vesk', characterId: ch, level: 2, volition: 1, ac: 15 } });
    s.run({ type: '36th-way.sheet.set', sheet: { id: 'ogre', name: 'Ogre', kind: 'npc', level: 2, ac: 13, pd: 12, md: 10, maxHp: 20 } });
    s.run({ type: 'encounter.start', combatants: [{ id: 'vesk', name: 'Vesk', kind: 'pc', side: 'party', band: 'fast', characterId: ch }, { id: 'ogre', name: 'Ogre', kind: 'npc', side: 'foes', band: 'slow' }] });
    s.run({ type: '36th-way.position', a: 'vesk', b: 'ogre', range: 'engaged' });
    const attack = pick(s, GM, 'vesk', 'attack');
    const f = initialForm(attack);
    expect(f).toMatchObject({ target: 'ogre', values: { basic: 'melee', advantage: '0', bonus: '0' } });
    const words = odds(s, GM, attack, f);
    // +3 (level 2, volition 1) vs AC 13: natural 10+, 135/216.
    expect(words.headline).toBe('62.5% to hit · 1.9% crit · 0.5% crit fail');
    expect(words.detail).toBe('+3 vs AC 13: natural 10+ hits, 17+ crits');
    const tx = s.run(commandOf(attack, f) as { type: string; [k: string]: Json });
    expect(eventOf(tx, '36th-way.attackRolled')).toMatchObject({ attackerId: 'vesk', targetId: 'ogre', defenseValue: 13, parts: { level: 2, volition: 1, escalation: 0, bonus: 0 } });
    // The player's phone: Vesk's own actions; the attack is spent now.
    const player = { role: 'player', seatId } as Viewer;
    expect(pick(s, player, 'vesk', 'attack')).toMatchObject({ allowed: false });
    expect(pick(s, player, 'vesk', 'move')).toMatchObject({ allowed: true, target: { options: [{ value: 'ogre', note: 'engaged' }] } });
  });

  it('teams: weapons from the sheet, sneak attack as a flag; teams.attack rolls what the odds described', () => {
    const s = scenario(teamsModules, { rng: seededRng(5), rulesetId: 'teams' });
    const { ch } = seatWithCharacter(s, 'Boudica');
    const spear = { attributes: ['strength'], proficiencies: ['martial'], damage: 4, criticalDamage: 8, criticalThreshold: 19, damageType: 'piercing' };
    s.run({ type: 'encounter.start', combatants: [{ id: 'boudica', kind: 'pc', side: 'players', characterId: ch }, { id: 'foe', kind: 'npc', side: 'foes' }], params: { teamOrder: ['players', 'foes'] } });
    // Sheets once the fight has the creatures (character.sheet.set keys Boudica's by the combatant playing her).
    s.run({ type: 'character.sheet.set', characterId: ch, sheet: { attributes: { strength: 6 }, skills: { combat: 6 }, proficiencies: { martial: 1 }, evasion: 5, constitution: 4, maxEndurance: 12, maxHealth: 12, maxStamina: 4, maxFocus: 2, items: { spear: { name: 'spear', weapon: spear }, shield: { name: 'shield', block: 3, maxDurability: 6 } } } });
    s.run({ type: 'character.sheet.set', characterId: 'foe', sheet: { name: 'Raider', attributes: { strength: 6 }, skills: { combat: 6 }, evasion: 6, constitution: 3, maxEndurance: 10, maxHealth: 10 } });
    const attack = pick(s, GM, 'boudica', 'attack');
    const f = initialForm(attack);
    expect(f).toMatchObject({ target: 'foe', values: { weapon: 'spear' }, flags: { sneak: false, flank: false } });
    // d6 + d6 + 1 vs evasion 6 with a 19+ critical: 0.1 + 0.9 x 30/36 = 85%, 10% critical.
    expect(odds(s, GM, attack, f).headline).toBe('85% to hit · 10% critical');
    // Advantage: 0.1 + 0.9 x (1 - (6/36)^2) = 97.5%.
    expect(odds(s, GM, attack, { ...f, flags: { ...f.flags, sneak: true } })).toMatchObject({ headline: '97.5% to hit · 10% critical', detail: expect.stringContaining('advantage +1') as unknown as string });
    const tx = s.run(commandOf(attack, f) as { type: string; [k: string]: Json });
    expect(eventOf(tx, 'teams.attacked')).toMatchObject({ attacker: 'boudica', intended: 'foe', weapon: 'spear', attribute: 'strength', advantage: 0 });
    // Move is a one-tap spend of the kernel's economy.
    expect(oneTap(pick(s, GM, 'boudica', 'move'))).toBe(true);
  });

  it('teams Resuscitate: the form\'s attribute and skill become the test object teams.act reads, and Roland wakes (003 example)', () => {
    const s = scenario(teamsModules, { rng: seededRng(5), rulesetId: 'teams' });
    s.run({ type: 'encounter.start', combatants: [{ id: 'clem', kind: 'pc', side: 'players' }, { id: 'roland', kind: 'pc', side: 'players' }], params: { teamOrder: ['players'] } });
    s.run({ type: 'character.sheet.set', characterId: 'clem', sheet: { name: 'Clementine', attributes: { wits: 20 }, skills: { medicine: 20 }, maxHealth: 8 } });
    s.run({ type: 'character.sheet.set', characterId: 'roland', sheet: { name: 'Roland', maxHealth: 8, health: 0, conscious: false } });
    const res = pick(s, GM, 'clem', 'resuscitate');
    const f = initialForm(res);
    expect(f).toMatchObject({ target: 'roland', values: { 'test.attribute': 'wits', 'test.skill': 'medicine' } });
    expect(payloadOf(res, f)).toEqual({ ok: true, value: { characterId: 'clem', action: 'Resuscitate', difficulty: 10, targetId: 'roland', test: { attribute: 'wits', skill: 'medicine' } } });
    const tx = s.run(commandOf(res, f) as { type: string; [k: string]: Json });
    const revived = eventOf(tx, 'teams.revived') as unknown as { success: boolean; difficulty: number; roll: { total: number } };
    expect(revived.success).toBe(revived.roll.total >= revived.difficulty);
    expect((s.world.ext['teams'] as { sheets: { roland: { conscious: boolean } } }).sheets.roland.conscious).toBe(revived.success);
  });

  it('OSR: attack kinds as a choice, proficiency as a flag; a bad number is a sentence; osr.attack is accepted', () => {
    const s = scenario(osr.ruleset.modules, { rng: seededRng(9), rulesetId: 'osr' });
    const { ch } = seatWithCharacter(s, 'Brannoc');
    s.run({ type: 'character.update', id: ch, stats: { str: 14, dex: 12, level: 1, maxHp: 8, hp: 8 } });
    s.run({ type: 'character.add', name: 'Orc', kind: 'npc', stats: { ac: 15, maxHp: 6, hp: 6 } });
    const orc = Object.values(s.world.characters).find((c) => c.name === 'Orc')!.id;
    s.run({ type: 'encounter.start', combatants: [{ id: 'b', name: 'Brannoc', kind: 'pc', characterId: ch, stats: { dex: 12 } }, { id: 'o', name: 'Orc', kind: 'npc', characterId: orc, stats: { dex: 8 } }] });
    const attack = pick(s, GM, 'b', 'attack');
    const f = { ...initialForm(attack), flags: { proficient: true } };
    expect(f).toMatchObject({ target: orc, values: { kind: 'melee', damage: '1d6' } });
    // +2 STR +2 proficiency vs AC 15: natural 11+ (50%), crit on 20 (5%).
    expect(odds(s, GM, attack, f).headline).toBe('50% to hit · 5% crit');
    expect(payloadOf(attack, { ...f, values: { ...f.values, bonus: '99' } })).toEqual({ ok: false, message: 'Bonus must be a whole number from -30 to 30.' });
    expect(payloadOf(attack, { ...f, target: 'nobody' })).toEqual({ ok: false, message: 'Pick a target.' });
    const tx = s.run(commandOf(attack, f) as { type: string; [k: string]: Json });
    expect(eventOf(tx, 'osr.attacked')).toMatchObject({ attackerId: ch, targetId: orc, kind: 'melee', ac: 15 });
    // A form kept across answers keeps its picks while they are still offered.
    expect(keepForm(attack, { ...f, values: { ...f.values, kind: 'ranged' } }).values['kind']).toBe('ranged');
    expect(keepForm(attack, { ...f, values: { ...f.values, kind: 'laser' } }).values['kind']).toBe('melee');
  });

  it('Kleptonomicon: a Test with its exact odds in words; Daggerheart: an action roll with its duality odds', () => {
    const k = scenario(kleptonomicon.ruleset.modules, { rng: seededRng(2), rulesetId: 'kleptonomicon' });
    const { ch } = seatWithCharacter(k, 'Alice');
    k.run({ type: 'kleptonomicon.startEpisode' });
    k.run({ type: 'kleptonomicon.freeplay' });
    k.run({ type: 'encounter.start', combatants: [{ id: 'a', name: 'Alice', kind: 'pc', characterId: ch }] });
    const test = pick(k, GM, 'a', 'test');
    // One d10ish die + 0 passes on 7, 8, 9 (2/20 each) and a critical 10 (1/20): 35%.
    expect(odds(k, GM, test, initialForm(test))).toEqual({ headline: '35% to succeed', detail: 'fails on a Score of 6 or lower' });
    const d = scenario(daggerheart.ruleset.modules, { rng: seededRng(4), rulesetId: 'daggerheart' });
    const rogue = seatWithCharacter(d, 'Rogue').ch;
    d.run({ type: 'encounter.start', combatants: [{ id: rogue, name: 'Rogue', kind: 'pc', characterId: rogue }] });
    const roll = pick(d, GM, rogue, 'actionRoll');
    // 2d12 against 10: the pairs summing to 10+ or matching, 112 of 144 (77.8%); matching 12 of 144 (8.3%).
    expect(odds(d, GM, roll, initialForm(roll)).headline).toBe('77.8% success · 8.3% critical');
  });
});

describe('Kleptonomicon Move: whose reach it leaves (004 "Movement Reactions")', () => {
  it('nobody by default sends an empty list; the Guard picked, and the Hound ticked too, are sent; the command opens their prompts', () => {
    const k = scenario(kleptonomicon.ruleset.modules, { rng: seededRng(2), rulesetId: 'kleptonomicon' });
    const { ch } = seatWithCharacter(k, 'Alice');
    k.run({ type: 'kleptonomicon.startEpisode' });
    k.run({ type: 'kleptonomicon.freeplay' });
    k.run({ type: 'encounter.start', combatants: [{ id: 'a', name: 'Alice', kind: 'pc', characterId: ch, stats: { edgeSave: 20 } }, { id: 'g', name: 'Guard', kind: 'npc', stats: { creatureType: 'guard' } }, { id: 'h', name: 'Hound', kind: 'npc', stats: { creatureType: 'hound' } }] });
    while ((k.world.ext['encounter'] as { current: string | null }).current !== 'a') k.run({ type: 'encounter.endTurn' });
    const move = pick(k, GM, 'a', 'move');
    const f = initialForm(move);
    expect(f.target).toBe('');
    expect(payloadOf(move, f)).toEqual({ ok: true, value: { characterId: ch, leaving: [], style: 'walk', units: 1 } });
    const guard = { ...f, target: 'g' };
    expect(payloadOf(move, guard)).toMatchObject({ ok: true, value: { leaving: ['g'] } });
    // "nobody" never goes out with a ticked foe.
    expect(payloadOf(move, { ...f, also: ['h'] })).toMatchObject({ ok: true, value: { leaving: ['h'] } });
    const both = commandOf(move, { ...guard, also: ['h'] })!;
    expect(both).toMatchObject({ type: 'kleptonomicon.move', leaving: ['g', 'h'] });
    k.run(both as never);
    expect((k.world.ext['kleptonomicon'] as { opportunities: Json }).opportunities).toEqual({ g: 'a', h: 'a' });
  });
});

describe("a foe's attack from its stat block (ADR 40)", () => {
  it('Daggerheart: the adversary in the spotlight gets Attack; its odds in words (d20 +1 vs Evasion 10: 60%); the command it sends is accepted', () => {
    const d = scenario(daggerheart.ruleset.modules, { rng: seededRng(6), rulesetId: 'daggerheart' });
    const kira = seatWithCharacter(d, 'Kira').ch;
    d.run({ type: 'character.update', id: kira, stats: { evasion: 10, major: 5, severe: 10 } });
    d.run({ type: 'daggerheart.addAdversaries', name: 'Bandit', difficulty: 12, major: 6, severe: 11, hp: 4, attack: 1, damage: '1d8+2', visibility: 'visible' });
    const bandit = Object.values(d.world.characters).find((c) => c.name === 'Bandit')!.id;
    d.run({ type: 'encounter.start', combatants: [{ id: kira, name: 'Kira', kind: 'pc', characterId: kira }, { id: bandit, name: 'Bandit', kind: 'npc', characterId: bandit }] });
    const attack = pick(d, GM, bandit, 'adversaryAttack');
    const form = initialForm(attack);
    expect(odds(d, GM, attack, form)).toEqual({ headline: '60% to hit · 5% critical', detail: 'd20 +1 vs Evasion 10 · 1d8+2 damage' });
    const tx = d.run(commandOf(attack, form)! as unknown as Parameters<typeof d.run>[0]);
    expect(eventOf(tx, 'daggerheart.adversaryAttacked')).toMatchObject({ attackerId: bandit, targetId: kira, attack: 1, evasion: 10 });
  });
});

describe('rules the screen could not reach (GM review, issue 20)', () => {
  it('OSR: Stabilize a dying ally with its odds in words (d20 + WIS vs DC 10), its command accepted; the GM\'s Morale check sends osr.morale', () => {
    const s = scenario(osr.ruleset.modules, { rng: seededRng(5), rulesetId: 'osr' });
    const kira = seatWithCharacter(s, 'Kira');
    s.run({ type: 'character.update', id: kira.ch, stats: { wis: 16, maxHp: 8, hp: 8 } });
    s.run({ type: 'character.add', name: 'Bram', kind: 'pc', stats: { maxHp: 6, hp: 6 } });
    s.run({ type: 'character.add', name: 'Goblin', kind: 'npc', stats: { ac: 11, maxHp: 5, hp: 5 } });
    const id = (n: string) => Object.values(s.world.characters).find((c) => c.name === n)!.id;
    s.run({
      type: 'encounter.start',
      combatants: [
        { id: 'k', name: 'Kira', kind: 'pc', side: 'party', characterId: kira.ch, stats: { dex: 14 } },
        { id: 'b', name: 'Bram', kind: 'pc', side: 'party', characterId: id('Bram'), stats: { dex: 8 } },
        { id: 'g', name: 'Goblin', kind: 'npc', side: 'foes', characterId: id('Goblin'), stats: { dex: 10 } },
      ],
    });
    s.run({ type: 'osr.damage', targetId: id('Bram'), amount: 9 });
    const phone: Viewer = { role: 'player', seatId: kira.seatId };
    const st = pick(s, phone, 'k', 'stabilize');
    const f = initialForm(st);
    expect(f).toMatchObject({ target: id('Bram'), values: { ability: 'wis', difficulty: '10' } });
    // WIS 16 is +3: a d20 of 7 or more meets DC 10, 14 faces of 20.
    expect(odds(s, phone, st, f)).toEqual({ headline: '70% to succeed', detail: 'd20 +3 vs DC 10' });
    const tx = s.run(commandOf(st, f) as { type: string; [k: string]: Json }, phone);
    expect(eventOf(tx, 'osr.checked')).toMatchObject({ characterId: kira.ch, kind: 'stabilize' });
    expect(s.world.log.at(-1)!.text).not.toContain(id('Bram'));
    expect(answer(s, phone, 'k').actions.map((a) => a.id)).not.toContain('morale');
    const morale = pick(s, GM, 'k', 'morale');
    const mf = initialForm(morale);
    expect(payloadOf(morale, mf)).toEqual({ ok: true, value: { characterIds: [id('Goblin')], as: 'side', advantage: 0, proficient: false, trigger: 'the GM called for it' } });
    expect(eventOf(s.run(commandOf(morale, mf) as { type: string; [k: string]: Json }), 'osr.moraleRolled')).toMatchObject({ characterId: id('Goblin'), group: [id('Goblin')] });
  });

  it('the 36th Way: Rally is one form (no effect to save against: one tap), Delay one tap per later band, Ready a form whose trigger the engine asks for when left empty', () => {
    const s = scenario(thirtySixthWay.ruleset.modules, { rng: seededRng(6), rulesetId: '36th-way' });
    s.run({ type: '36th-way.sheet.set', sheet: { id: 'ann', name: 'Ann', kind: 'pc', level: 1, volition: 3, ac: 15, pd: 12, md: 11, maxHp: 30, recoveries: 3, recoveryDice: { count: 1, sides: 8 }, recoveryBonus: 3 } });
    s.run({ type: 'encounter.start', combatants: [{ id: 'ann', name: 'Ann', kind: 'pc', side: 'party', band: 'fast' }] });
    if (s.world.ext['encounter'] !== undefined && (s.world.ext['encounter'] as { pending: unknown }).pending !== null) s.run({ type: 'encounter.choose', id: 'ann' });
    const rally = pick(s, GM, 'ann', 'rally');
    expect(oneTap(rally)).toBe(true);
    expect(rally.cost).toBe('1 standard action, 1 recovery (3 left)');
    expect(oneTap(pick(s, GM, 'ann', 'delay:slow'))).toBe(true);
    const ready = pick(s, GM, 'ann', 'ready');
    expect(oneTap(ready)).toBe(false);
    // An empty trigger is left out, and the engine then says what is missing.
    const bare = s.engine.execute(s.table, commandOf(ready, initialForm(ready)) as { type: string; [k: string]: Json }, { rng: seededRng(1), actor: GM });
    expect(bare).toMatchObject({ ok: false, error: { path: 'trigger' } });
    expect(payloadOf(ready, { ...initialForm(ready), values: { ...initialForm(ready).values, trigger: 'an orc moves' } })).toEqual({ ok: true, value: { action: 'standard', trigger: 'an orc moves' } });
  });
});

describe('when the actions panel asks again', () => {
  const same = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
  it('not for a log line or a clock change (the world copied around unchanged parts, as a delta does); yes for the turn, a spend or a sheet', () => {
    const s = scenario(osr.ruleset.modules, { rng: seededRng(3), rulesetId: 'osr' });
    s.run({ type: 'character.add', name: 'Kira', kind: 'pc', stats: { hp: 9, maxHp: 9, dex: 14 } });
    s.run({ type: 'encounter.start', combatants: [{ id: 'k', name: 'Kira', kind: 'pc', side: 'party', stats: { dex: 14 } }, { id: 'g', name: 'Goblin', kind: 'npc', side: 'foes', stats: { dex: 8 } }] });
    const w = s.world;
    const enc = w.ext['encounter'] as unknown as import('@tablekeeper/engine').EncounterState;
    const inputs = (x: typeof w) => actionsInputs(x, x.ext['encounter'] as unknown as typeof enc, 'k');
    expect(same(inputs(w), inputs({ ...w, log: [...w.log] }))).toBe(true);
    expect(same(inputs(w), inputs({ ...w, clock: { ...w.clock } }))).toBe(true);
    expect(same(inputs(w), inputs({ ...w, ext: { ...w.ext, encounter: { ...enc, turnSerial: enc.turnSerial + 1 } as unknown as Json } }))).toBe(false);
    expect(same(inputs(w), inputs({ ...w, ext: { ...w.ext, encounter: { ...enc, economy: { ...enc.economy, k: { ...enc.economy['k']! } } } as unknown as Json } }))).toBe(false);
    expect(same(inputs(w), inputs({ ...w, ext: { ...w.ext, osr: { ...(w.ext['osr'] as object) } } }))).toBe(false);
    // Always the same length, so the hook's dependency list never changes size.
    expect(inputs(w).length).toBe(inputs({ ...w, ext: { ...w.ext, extra: 1 } }).length);
  });
});

describe('a form whose purpose is gone (review 8: the phone\'s Stabilize stayed open on its result)', () => {
  it('OSR Stabilize: open while an ally is dying; once nobody is, a rolled form is done, in words; the caller\'s words win', () => {
    const s = scenario(osr.ruleset.modules, { rng: seededRng(5), rulesetId: 'osr' });
    s.run({ type: 'seat.add', name: "Bram's player" });
    const seatId = Object.keys(s.world.seats).at(-1)!;
    s.run({ type: 'character.add', name: 'Bram', kind: 'pc', seatId, stats: { maxHp: 9, hp: 9, dex: 12, wis: 14 } });
    const bram = Object.values(s.world.characters).find((c) => c.name === 'Bram')!.id;
    s.run({ type: 'character.add', name: 'Kira', kind: 'pc', stats: { maxHp: 9, hp: 9, dex: 14 } });
    const kira = Object.values(s.world.characters).find((c) => c.name === 'Kira')!.id;
    s.run({ type: 'character.add', name: 'Goblin', kind: 'npc', stats: { maxHp: 5, hp: 5, dex: 8 } });
    const gob = Object.values(s.world.characters).find((c) => c.name === 'Goblin')!.id;
    s.run({ type: 'encounter.start', combatants: [{ name: 'Kira', kind: 'pc', side: 'party', characterId: kira }, { name: 'Bram', kind: 'pc', side: 'party', characterId: bram }, { name: 'Goblin', kind: 'npc', side: 'foes', characterId: gob }] });
    s.run({ type: 'osr.damage', targetId: kira, amount: 9 });
    s.run({ type: 'encounter.end' });
    const bramsView: Viewer = { role: 'player', seatId };
    const stabilize = () => {
      const r = s.engine.query(s.table, bramsView, 'osr.stabilizeActions', { characterId: bram });
      expect(r.ok, JSON.stringify(r)).toBe(true);
      return readActions((r as { value: Json }).value)!.actions[0]!;
    };
    const before = stabilize();
    expect(before.target?.options.map((o) => o.label)).toEqual(['Kira']);
    // Someone still to help: never done, rolled or not.
    expect(formDone(before, false)).toBeNull();
    expect(formDone(before, true)).toBeNull();
    s.run({ type: 'osr.stabilize', targetId: kira, method: 'spell' });
    const after = stabilize();
    expect(after.target?.options).toEqual([]);
    // Not rolled here (another saved her): the form is not closed under the player by this rule alone.
    expect(formDone(after, false)).toBeNull();
    expect(formDone(after, true)).toBe("None of Bram's allies in view is dying (at 0 HP and not yet stabilized).");
    expect(formDone(after, false, 'Kira is stable (3 HP).')).toBe('Kira is stable (3 HP).');
  });

  it('a targetless action, or one with targets left, is never done by this rule (an attack with foes standing)', () => {
    const a = { id: 'x', label: 'Rally', allowed: false, reason: 'Rally is expended', target: null } as unknown as TurnAction;
    expect(formDone(a, true)).toBeNull();
    const b = { id: 'y', label: 'Attack', allowed: true, reason: null, target: { field: 'targetId', multiple: false, options: [{ value: 'g', label: 'Goblin 2' }] } } as unknown as TurnAction;
    expect(formDone(b, true)).toBeNull();
    const c = { ...b, target: { field: 'targetId', multiple: false, options: [] } } as unknown as TurnAction;
    expect(formDone(c, true)).toBe('Nobody is left for Attack.');
  });
});

describe('formStays (review 10: a dying PC kept last turn\'s Attack form; review 11: an unrolled one stayed)', () => {
  const attack = (allowed: boolean) => ({ id: 'attack', allowed });
  it('an action still allowed keeps its form, whatever turn it was opened in, rolled or not', () => {
    expect(formStays(attack(true), 3, 7, false, false)).toBe(true);
    expect(formStays(attack(true), null, 7, false, true)).toBe(true);
  });
  it('a spent action keeps its form (and its roll) only when it rolled in the turn it was opened', () => {
    expect(formStays(attack(false), 7, 7, false, true)).toBe(true);
    expect(formStays(attack(false), 6, 7, false, true)).toBe(false);
    expect(formStays(attack(false), null, 7, false, true)).toBe(false);
  });
  it('an action that may no longer be taken closes its unrolled form, even in the turn it was opened (review 11 #5)', () => {
    expect(formStays(attack(false), 7, 7, false, false)).toBe(false);
  });
  it('a dying creature keeps only the death save form open, even in the same turn', () => {
    expect(formStays(attack(true), 7, 7, true, false)).toBe(false);
    expect(formStays(attack(false), 7, 7, true, true)).toBe(false);
    expect(formStays({ id: 'deathSave', allowed: true }, 7, 7, true, false)).toBe(true);
  });
});

describe('a several-pick choice (ADR 111: an OSR check\'s light tags)', () => {
  it('Search opens on seeing; ticking listening sends both (in the options\' order), the odds ask about both, and the roll takes them; none ticked sends none', () => {
    const s = scenario(osr.ruleset.modules, { rng: seededRng(3), rulesetId: 'osr' });
    s.run({ type: 'character.add', name: 'Kira', kind: 'pc', stats: { wis: 12, hp: 8, maxHp: 8 } });
    s.run({ type: 'osr.setLight', level: 'dim' });
    const r = s.engine.query(s.table, GM, 'osr.checks', {});
    expect(r.ok, JSON.stringify(r)).toBe(true);
    // The checks answer as the Skill checks panel reads it (no combatant: these are asked outside a fight).
    const search = ((r as { value: Json }).value as unknown as { actions: TurnAction[] }).actions.find((a) => a.label === 'Search (by sight)')!;
    const tags = search.choices.find((c) => c.field === 'tags')!;
    const f = initialForm(search);
    expect(picksOf(tags, f.values['tags']!)).toEqual(['sight']);
    // Ticked after seeing, kept in the options' order whichever is ticked first.
    const both = { ...f, values: { ...f.values, tags: tickPick(tags, f.values['tags']!, 'listening', true) } };
    expect(both.values['tags']).toBe(tickPick(tags, tickPick(tags, '', 'listening', true), 'sight', true));
    expect(payloadOf(search, both)).toMatchObject({ ok: true, value: { tags: picksOf(tags, both.values['tags']!) } });
    expect(oddsQueryOf(search, both)!.args['tags']).toEqual(picksOf(tags, both.values['tags']!));
    expect([...picksOf(tags, both.values['tags']!)].sort()).toEqual(['listening', 'sight']);
    // Dim light: seeing hindered, listening favoured, so they cancel: the odds say so.
    expect(odds(s, GM, search, both).detail).not.toMatch(/advantage|disadvantage/);
    // A form kept across answers keeps both ticks.
    expect(keepForm(search, both).values['tags']).toBe(both.values['tags']);
    const tx = s.run(commandOf(search, both) as never);
    expect(eventOf(tx, 'osr.checked')).toMatchObject({ roll: { advantage: 0 } });
    // Unticked: the field is left out (nothing the light changes); a value no longer offered is refused in words.
    const none = { ...f, values: { ...f.values, tags: tickPick(tags, f.values['tags']!, 'sight', false) } };
    expect(none.values['tags']).toBe('');
    expect((payloadOf(search, none) as { value: { [k: string]: Json } }).value['tags']).toBeUndefined();
    expect(payloadOf(search, { ...f, values: { ...f.values, tags: 'sight,moonbeams' } })).toEqual({ ok: false, message: 'Pick the light bears on.' });
  });
});
