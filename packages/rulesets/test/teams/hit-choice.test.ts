// "You are hit": the target's choice before damage (003 "Block": decide after
// the hit, before the damage), each answer with its odds (ADR 42); fortify or
// fall (003 "Damage"); the action table's forms (Brandish, Command, Ready,
// Short Task, Killing Strike, Fortify) as the actions query offers them.
import { describe, expect, it } from 'vitest';
import type { Json, Scenario, Viewer } from '@tablekeeper/engine';
import type { ActionsAnswer, TurnAction } from '../../src/actions.js';
import { boudica, dagger, enemy, fight, lastOf, sheet, sheetFor, spear, start, table, turnTo } from './helpers.js';

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

/** The enemy of 003's examples (evasion 6, physical reduction 8), with stamina, a sword to parry and a shield to block. */
const guard = enemy({
  name: 'Guard',
  maxStamina: 2,
  attributes: { strength: 6 },
  skills: { combat: 6 },
  items: { sword: { name: 'sword', metal: true, parry: 2 }, shield: { name: 'shield', block: 3, maxDurability: 6 }, spear: { name: 'spear', weapon: spear } },
  wielded: ['sword', 'shield'],
});

/** Boudica's turn against the guard; she hits with a test of 6 (003 "Attacks": strength d6 + combat d6 + martial 1). */
function hitGuard() {
  const { s, dice } = table();
  sheetFor(s, 'b', boudica);
  sheetFor(s, 'g', guard);
  fight(s, ['b'], ['g'], 'b');
  dice.push(3, 2, 10); // 3 + 2 + 1 = 6 against evasion 6, luck 10: a plain hit
  s.run({ type: 'teams.attack', attackerId: 'b', targetId: 'g', weapon: 'spear' });
  const attackId = String(lastOf(s, 'teams.attacked')['id']);
  return { s, dice, attackId };
}

describe('you are hit: take it, parry, block or dodge, with the odds of each (003 "Defensive Actions")', () => {
  it('the hit waits; taking it lands 10 - 8 = 2 (003 "Attacks": Boudica\'s spear, test 6 + damage 4 against physical reduction 8)', () => {
    const { s, attackId } = hitGuard();
    const r = ask<Reactions>(s, GM, 'teams.reactions', { characterId: 'g' });
    expect(r.prompts).toHaveLength(1);
    expect(r.prompts[0]).toMatchObject({ id: attackId, kind: 'hit', text: 'Boudica hit Guard: 10 piercing damage before reduction. Answer before it lands.' });
    expect(r.prompts[0]!.actions.map((a) => [a.id, a.allowed])).toEqual([
      ['take', true],
      ['parry', true],
      ['block', true],
      ['dodge', true],
    ]);
    expect(ask(s, GM, 'teams.defendOdds', { attackId, reaction: 'none' })).toMatchObject({ damage: 2, avoid: 0, raw: 10 });
    s.run({ type: 'teams.defend', attackId, reaction: 'none' });
    expect(sheet(s, 'g')['endurance']).toBe(8);
    expect(ask<Reactions>(s, GM, 'teams.reactions', { characterId: 'g' }).prompts).toEqual([]);
  });

  it('parry with the sword (parry 2): the reduction becomes 10, so the minimum 1 lands, and the sword loses 1 durability (10 -> 9, metal)', () => {
    const { s, attackId } = hitGuard();
    const parry = find(ask<Reactions>(s, GM, 'teams.reactions', { characterId: 'g' }).prompts[0]!.actions, 'parry');
    expect(parry).toMatchObject({ command: 'teams.defend', fixed: { attackId, reaction: 'parry' }, cost: 'the reaction, 1 stamina' });
    expect(parry.choices[0]!.options.map((o) => o.value)).toEqual(['sword', 'shield']);
    expect(ask(s, GM, 'teams.defendOdds', { attackId, reaction: 'parry', item: 'sword' })).toMatchObject({ damage: 1, item: 'sword', durability: { from: 10, to: 9 } });
    s.run({ type: 'teams.defend', attackId, reaction: 'parry', item: 'sword' });
    expect(sheet(s, 'g')['endurance']).toBe(9);
    expect(sheet(s, 'g')['stamina']).toBe(1);
  });

  it('block with the shield (block 3, durability 6): 10 - 3 = 7 to the shield breaks it, and the 1 it could not take reaches the guard (003 "Block")', () => {
    const { s, attackId } = hitGuard();
    const block = find(ask<Reactions>(s, GM, 'teams.reactions', { characterId: 'g' }).prompts[0]!.actions, 'block');
    // Only an item with the block property blocks.
    expect(block.choices[0]!.options.map((o) => o.value)).toEqual(['shield']);
    expect(ask(s, GM, 'teams.defendOdds', { attackId, reaction: 'block', item: 'shield' })).toMatchObject({ damage: 1, durability: { from: 6, to: 0 } });
    s.run({ type: 'teams.defend', attackId, reaction: 'block', item: 'shield' });
    expect(sheet(s, 'g')['endurance']).toBe(9);
  });

  it('dodge: strength d6 + combat d6 against the attack\'s 6, with the luck die\'s +4 on a 20: 19/20 x 26/36 + 1/20 = 53/72', () => {
    const { s, dice, attackId } = hitGuard();
    const odds = ask<{ avoid: number; difficulty: number; damage: number }>(s, GM, 'teams.defendOdds', { attackId, reaction: 'dodge', test: { attribute: 'strength', skill: 'combat' } });
    expect(odds.difficulty).toBe(6);
    expect(odds.avoid).toBeCloseTo(53 / 72, 12);
    expect(odds.damage).toBe(2);
    dice.push(4, 3, 10); // 7 >= 6: avoided
    s.run({ type: 'teams.defend', attackId, reaction: 'dodge', test: { attribute: 'strength', skill: 'combat' } });
    expect(lastOf(s, 'teams.hitResolved')).toMatchObject({ avoided: true, damage: 0 });
  });

  it("the target's player answers for it; another player may not, and sees no prompt", () => {
    const { s, dice } = table();
    s.run({ type: 'seat.add', name: 'Ann' });
    s.run({ type: 'seat.add', name: 'Bo' });
    const seats = Object.keys(s.world.seats);
    s.run({ type: 'character.add', name: 'Guard', kind: 'pc', seatId: seats[0]! });
    const gId = Object.values(s.world.characters).find((c) => c.name === 'Guard')!.id;
    sheetFor(s, 'b', boudica);
    sheetFor(s, 'g', { ...guard, characterId: gId });
    start(s, { type: 'encounter.start', combatants: [{ id: 'b', kind: 'npc', side: 'foes' }, { id: 'g', kind: 'pc', side: 'players', characterId: gId }], params: { teamOrder: ['foes', 'players'] } });
    turnTo(s, 'b');
    dice.push(3, 2, 10);
    s.run({ type: 'teams.attack', attackerId: 'b', targetId: 'g', weapon: 'spear' });
    const ann: Viewer = { role: 'player', seatId: seats[0]! };
    const bo: Viewer = { role: 'player', seatId: seats[1]! };
    const mine = ask<Reactions>(s, ann, 'teams.reactions', { characterId: 'g' });
    expect(mine.prompts.map((p) => p.actions.map((a) => a.id))).toEqual([['take', 'parry', 'block', 'dodge']]);
    expect(s.engine.query(s.table, bo, 'teams.reactions', { characterId: 'g' })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(s.engine.query(s.table, ann, 'teams.defendOdds', { attackId: mine.prompts[0]!.id, reaction: 'parry', item: 'sword' })).toMatchObject({ ok: true, value: { damage: 1 } });
  });

  it('a critical on a target holding nothing lands at once: no reaction of its own could answer it (a critical cannot be dodged)', () => {
    const { s, dice } = table();
    sheetFor(s, 'b', boudica);
    sheetFor(s, 'g', { ...guard, wielded: [] });
    fight(s, ['b'], ['g'], 'b');
    dice.push(1, 1, 19); // luck 19 meets the spear's critical threshold 19: cannot miss
    s.run({ type: 'teams.attack', attackerId: 'b', targetId: 'g', weapon: 'spear' });
    expect(lastOf(s, 'teams.hitResolved')).toMatchObject({ reaction: 'none' });
    expect(ask<Reactions>(s, GM, 'teams.reactions', { characterId: 'g' }).prompts).toEqual([]);
  });

  it('a plain hit on a target holding nothing still waits: a dodge can answer it', () => {
    const { s, dice } = table();
    sheetFor(s, 'b', boudica);
    sheetFor(s, 'g', { ...guard, wielded: [] });
    fight(s, ['b'], ['g'], 'b');
    dice.push(3, 2, 10);
    s.run({ type: 'teams.attack', attackerId: 'b', targetId: 'g', weapon: 'spear' });
    const acts = ask<Reactions>(s, GM, 'teams.reactions', { characterId: 'g' }).prompts[0]!.actions;
    expect(find(acts, 'parry')).toMatchObject({ allowed: false, reason: 'Guard wields nothing unbroken to parry with' });
    expect(find(acts, 'dodge').allowed).toBe(true);
  });
});

describe('fortify or fall (003 "Damage": Boudica\'s missing health 5 past her constitution 4)', () => {
  it('after 7 then 10 damage she must fortify against 5: strength d6 + athletics d4 + fortitude 1, 19/20 x 21/24 + 1/20 = 141/160; a 7 keeps her conscious', () => {
    const { s, dice } = table();
    sheetFor(s, 'b', boudica);
    sheetFor(s, 'g', guard);
    fight(s, ['b'], ['g'], 'b');
    s.run({ type: 'teams.damage', targetId: 'b', amount: 7, reduce: false });
    s.run({ type: 'teams.damage', targetId: 'b', amount: 10, reduce: false });
    expect(sheet(s, 'b')).toMatchObject({ endurance: 0, health: 7 });
    const prompt = ask<Reactions>(s, GM, 'teams.reactions', { characterId: 'b' }).prompts[0]!;
    expect(prompt).toMatchObject({ kind: 'atRisk', text: 'Boudica is losing consciousness: fortify against 5 or fall unconscious.' });
    const fortify = find(prompt.actions, 'fortify');
    expect(fortify.choices.map((c) => c.field)).toEqual(['test.attribute', 'test.skill', 'test.proficiency']);
    expect(fortify.choices[0]!.options[0]).toEqual({ value: 'strength', label: 'strength (d6)' });
    const odds = ask<{ pass: number }>(s, GM, fortify.odds!.query, { ...fortify.odds!.args, test: { attribute: 'strength', skill: 'athletics', proficiency: 'fortitude' } });
    expect(odds.pass).toBeCloseTo(141 / 160, 12);
    dice.push(4, 2, 10); // 4 + 2 + 1 = 7
    s.run({ type: fortify.command, ...fortify.fixed, test: { attribute: 'strength', skill: 'athletics', proficiency: 'fortitude' } });
    expect(lastOf(s, 'teams.fortified')).toMatchObject({ difficulty: 5, success: true });
    expect(sheet(s, 'b')['conscious']).toBe(true);
  });

  it('choosing to fall: unconscious, and every action and reaction on her list is then refused with the reason', () => {
    const { s } = table();
    sheetFor(s, 'b', boudica);
    sheetFor(s, 'g', guard);
    fight(s, ['b'], ['g'], 'b');
    s.run({ type: 'teams.damage', targetId: 'b', amount: 17, reduce: false });
    const fall = find(ask<Reactions>(s, GM, 'teams.reactions', { characterId: 'b' }).prompts[0]!.actions, 'fall');
    s.run({ type: fall.command, ...fall.fixed });
    expect(sheet(s, 'b')['conscious']).toBe(false);
    const list = ask<ActionsAnswer>(s, GM, 'teams.actions', { combatantId: 'b' }).actions;
    expect(list.length).toBeGreaterThan(10);
    expect(list.filter((a) => a.allowed)).toEqual([]);
    expect(new Set(list.map((a) => a.reason))).toEqual(new Set(['Boudica is unconscious']));
  });
});

describe('the action table as forms (003 Actions and Reactions tables)', () => {
  function turn() {
    const { s, dice } = table();
    sheetFor(s, 'b', boudica);
    sheetFor(s, 'p', { name: 'Petra', attributes: { dexterity: 6 }, skills: { combat: 6 }, maxStamina: 2 });
    sheetFor(s, 'g', guard);
    fight(s, ['b', 'p'], ['g'], 'b');
    const list = () => ask<ActionsAnswer>(s, GM, 'teams.actions', { combatantId: 'b' }).actions;
    return { s, dice, list };
  }

  it('Brandish picks from her own items and changes what she wields', () => {
    const { s, list } = turn();
    const b = find(list(), 'brandish');
    expect(b.target).toMatchObject({ field: 'items', multiple: true, max: 3, label: 'Hold' });
    expect(b.target!.options).toEqual([
      { value: 'spear', label: 'spear', note: 'held now' },
      { value: 'shield', label: 'shield', note: 'held now' },
      { value: 'sword', label: 'sword' },
    ]);
    s.run({ type: b.command, ...b.fixed, items: ['sword', 'shield'] });
    expect(sheet(s, 'b')['wielded']).toEqual(['sword', 'shield']);
  });

  it('Brandish and the sheet\'s Wielded agree (003 "Brandish" names no number of items): five items held either way, a sixth she lacks refused by both', () => {
    const { s, list } = turn();
    const five = { spear: { name: 'spear', weapon: spear }, shield: { name: 'shield', block: 2, parry: 1 }, sword: { name: 'sword', weapon: spear }, dagger: { name: 'dagger', weapon: dagger }, torch: { name: 'torch' } };
    sheetFor(s, 'b', { ...boudica, items: five, wielded: [] });
    const b = find(list(), 'brandish');
    // The picker lets her tick all five (it capped at four before), and the rule takes them.
    expect(b.target).toMatchObject({ field: 'items', multiple: true, max: 5 });
    s.run({ type: b.command, ...b.fixed, items: Object.keys(five) });
    expect(sheet(s, 'b')['wielded']).toEqual(Object.keys(five));
    // The sheet takes the same five as Wielded, and neither takes an item she does not carry.
    sheetFor(s, 'b', { ...boudica, items: five, wielded: Object.keys(five) });
    expect(sheet(s, 'b')['wielded']).toEqual(Object.keys(five));
    expect(s.fail({ type: b.command, ...b.fixed, items: [...Object.keys(five), 'axe'] })).toMatchObject({ code: 'INVALID_VALUE', path: 'items' });
    expect(s.fail({ type: 'character.sheet.set', characterId: 'b', sheet: { wielded: [...Object.keys(five), 'axe'] }, patch: true } as never)).toMatchObject({ code: 'INVALID_VALUE', message: expect.stringContaining('axe') as unknown as string });
  });

  it("Attack's weapon list follows what she wields: held weapons first and marked, the rest not in hand (review 10)", () => {
    const { s, list } = turn();
    const weapons = () => find(list(), 'attack').choices.find((c) => c.field === 'weapon')!.options;
    // Boudica holds the spear and the shield; the dagger she carries is a weapon not in hand.
    sheetFor(s, 'b', { ...boudica, items: { ...boudica.items, dagger: { name: 'dagger', weapon: dagger } } });
    expect(weapons()).toEqual([
      { value: 'spear', label: 'spear', note: 'in hand' },
      { value: 'dagger', label: 'dagger', note: 'not in hand' },
    ]);
    // Brandish the dagger and the shield: now the dagger leads.
    const b = find(list(), 'brandish');
    s.run({ type: b.command, ...b.fixed, items: ['dagger', 'shield'] });
    expect(weapons().map((o) => [o.value, o.note])).toEqual([
      ['dagger', 'in hand'],
      ['spear', 'not in hand'],
    ]);
    // A sheet that wields nothing keeps no track of hands: its weapons carry no note.
    sheetFor(s, 'b', { ...boudica, wielded: [] });
    expect(weapons()).toEqual([{ value: 'spear', label: 'spear' }]);
  });

  it('Command offers allies only and costs 2 focus (Boudica has 2)', () => {
    const { s, list } = turn();
    const c = find(list(), 'command');
    expect(c).toMatchObject({ command: 'teams.act', allowed: true });
    expect(c.target!.options.map((o) => o.value)).toEqual(['p']);
    s.run({ type: c.command, ...c.fixed, targetId: 'p' });
    expect(sheet(s, 'b')['focus']).toBe(0);
    expect(find(list(), 'command')).toMatchObject({ allowed: false, reason: 'Command needs 2 focus (Boudica has 0)' });
  });

  it("a Command opens the ally's granted single actions, marked (commanded), sent with commanded: true; used once, they go and the ally's own actions stay", () => {
    const { s, dice, list } = turn();
    sheetFor(s, 'p', { name: 'Petra', attributes: { dexterity: 6 }, skills: { combat: 6 }, maxStamina: 2, items: { dagger: { name: 'dagger', weapon: dagger } } });
    const petra = () => ask<ActionsAnswer>(s, GM, 'teams.actions', { combatantId: 'p' });
    const granted = () => petra().actions.filter((x) => x.id.endsWith('-commanded'));
    // Before any Command, Petra off her turn has nothing granted and her own Attack waits for her turn.
    expect(granted()).toEqual([]);
    expect(find(petra().actions, 'attack').allowed).toBe(false);
    const c = find(list(), 'command');
    s.run({ type: c.command, ...c.fixed, targetId: 'p' });
    // One action that does not end a turn and is not a Command (003 Actions table): Attack, Brandish, Interact, Move, Seek Cover, Stand Up.
    expect(granted().map((x) => [x.label, x.cost, x.allowed])).toEqual([
      ['Attack (commanded)', "given by Boudica's Command", true],
      ['Brandish (commanded)', "given by Boudica's Command", true],
      ['Interact (commanded)', "given by Boudica's Command", true],
      ['Move (commanded)', "given by Boudica's Command", true],
      ['Seek Cover (commanded)', "given by Boudica's Command", true],
      ['Stand Up (commanded)', "given by Boudica's Command", false],
    ]);
    expect(find(granted(), 'stand-up-commanded').reason).toBe('Petra is not prone');
    const attack = find(granted(), 'attack-commanded');
    expect(attack).toMatchObject({ command: 'teams.attack', fixed: { attackerId: 'p', commanded: true }, odds: { query: 'teams.attackOdds' } });
    // Foes first, then allies (ADR 52), as her own Attack lists them.
    expect(attack.target!.options.map((o) => o.value)).toEqual(['g', 'b']);
    dice.push(6, 6, 10);
    const tx = s.run({ type: attack.command, ...attack.fixed, targetId: 'g', weapon: 'dagger' });
    expect(lastOf(s, 'teams.commandUsed')).toMatchObject({ ally: 'p', by: 'b' });
    expect(lastOf(s, 'teams.attacked')).toMatchObject({ attacker: 'p', target: 'g' });
    // Used: the grant is gone, and none of Petra's own three actions was spent on it.
    expect(granted()).toEqual([]);
    expect(tx.kind === 'command' && tx.events.map((e) => e.type)).not.toContain('economy.spent');
    turnTo(s, 'p');
    expect(find(petra().actions, 'attack').allowed).toBe(true);
  });

  it('an unused Command lapses when the commander\'s turn ends: the granted entries go', () => {
    const { s, list } = turn();
    const c = find(list(), 'command');
    s.run({ type: c.command, ...c.fixed, targetId: 'p' });
    const granted = () => ask<ActionsAnswer>(s, GM, 'teams.actions', { combatantId: 'p' }).actions.filter((x) => x.id.endsWith('-commanded'));
    const move = find(granted(), 'move-commanded');
    expect(move).toMatchObject({ command: 'teams.act', fixed: { characterId: 'p', action: 'Move', commanded: true }, allowed: true });
    s.run({ type: 'encounter.endTurn' });
    expect(granted()).toEqual([]);
    // The engine agrees: the grant is no longer there to act on.
    expect(s.fail({ type: move.command, ...move.fixed }).code).toBe('NOT_COMMANDED');
  });

  it('Ready an Action picks the action and a trigger, and ends the turn', () => {
    const { s, list } = turn();
    const r = find(list(), 'ready-an-action');
    expect(r.choices[0]!.options.map((o) => o.value)).toContain('Attack');
    expect(r.choices[0]!.options.map((o) => o.value)).not.toContain('Guard');
    s.run({ type: r.command, ...r.fixed, readiedAction: 'Attack', trigger: r.texts[0]!.value });
    expect((s.world.ext['encounter'] as unknown as { combatants: { [k: string]: { readied: Json } } }).combatants['b']!.readied).toMatchObject({ action: 'Attack', trigger: 'a foe comes within reach' });
  });

  it('Short Task: a test at a difficulty with its odds (strength d6 + athletics d4 >= 10: 19/20 x 1/24 + 1/20 x 14/24 = 33/480)', () => {
    const { s, dice, list } = turn();
    const t = find(list(), 'short-task');
    expect(t.numbers[0]).toMatchObject({ field: 'difficulty', value: 10 });
    const odds = ask<{ pass: number }>(s, GM, t.odds!.query, { ...t.odds!.args, test: { attribute: 'strength', skill: 'athletics' }, difficulty: 10 });
    // d6 + d4 >= 10: only (6, 4), one of 24; with +4 on a luck 20 it needs 6+: 14 of 24.
    expect(odds.pass).toBeCloseTo(33 / 480, 12);
    dice.push(6, 4, 5);
    s.run({ type: t.command, ...t.fixed, label: 'climb the wall', test: { attribute: 'strength', skill: 'athletics' }, difficulty: 10 });
    expect(lastOf(s, 'teams.tested')).toMatchObject({ label: 'climb the wall', success: true });
  });

  it('Killing Strike: an unconscious target, a lethal weapon, three actions, odds with advantage against the constitution (3): 1 - 19/20 x (1/36)^2', () => {
    const { s, list } = turn();
    expect(find(list(), 'killing-strike')).toMatchObject({ allowed: false, reason: 'nobody here is unconscious', cost: '3 actions' });
    s.run({ type: 'teams.setTrack', characterId: 'g', field: 'health', value: 0 });
    sheetFor(s, 'g', { ...guard, health: 0, conscious: false });
    const k = find(list(), 'killing-strike');
    expect(k).toMatchObject({ allowed: true, command: 'teams.killingStrike', odds: { query: 'teams.killingStrikeOdds' } });
    expect(k.target!.options.map((o) => o.value)).toEqual(['g']);
    const odds = ask<{ kill: number; difficulty: number }>(s, GM, 'teams.killingStrikeOdds', { attackerId: 'b', targetId: 'g', weapon: 'spear' });
    expect(odds.difficulty).toBe(3);
    expect(odds.kill).toBeCloseTo(1 - (19 / 20) * (1 / 36) ** 2, 12);
  });

  it("Intercept: when the Guard hits Boudica, Petra may step in (the attack's 12 against her evasion 0 still hits); then the hit is hers, answered as a free reaction", () => {
    const { s, dice } = turn();
    turnTo(s, 'g');
    dice.push(6, 6, 10);
    s.run({ type: 'teams.attack', attackerId: 'g', targetId: 'b', weapon: 'spear' });
    const mine = ask<Reactions>(s, GM, 'teams.reactions', { characterId: 'p' }).prompts;
    expect(mine.map((p) => [p.kind, p.text])).toEqual([['intercept', "Guard hit Boudica. Petra may step in: the attack's 12 against Petra's evasion 0 still hits."]]);
    // The target itself is not offered its own intercept.
    expect(ask<Reactions>(s, GM, 'teams.reactions', { characterId: 'b' }).prompts.map((p) => p.kind)).toEqual(['hit']);
    const step = find(mine[0]!.actions, 'intercept');
    s.run({ type: step.command, ...step.fixed });
    const now = ask<Reactions>(s, GM, 'teams.reactions', { characterId: 'p' }).prompts;
    expect(now.map((p) => p.kind)).toEqual(['hit']);
    expect(find(now[0]!.actions, 'dodge').cost).toBe('a free reaction, 1 stamina');
    expect(ask<Reactions>(s, GM, 'teams.reactions', { characterId: 'b' }).prompts).toEqual([]);
  });

  it('Fortify against an effect is a reaction test at a difficulty the GM names (teams.react), on or off her turn', () => {
    const { s, dice, list } = turn();
    const f = find(list(), 'fortify');
    expect(f).toMatchObject({ command: 'teams.react', fixed: { characterId: 'b', reaction: 'fortify' }, cost: 'the reaction', allowed: true });
    dice.push(6, 4, 10);
    s.run({ type: f.command, ...f.fixed, test: { attribute: 'strength', skill: 'athletics' }, difficulty: 8 });
    expect(lastOf(s, 'teams.tested')).toMatchObject({ label: 'fortify', success: true });
    expect(find(list(), 'fortify').allowed).toBe(false);
  });
});
