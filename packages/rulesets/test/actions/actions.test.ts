// The `<ns>.actions` queries (issue 20, ADR 23): per ruleset, what the acting
// creature may do now, at what cost (cited from the rule texts), whom it may
// target, and which odds query prices the roll. Answered on the asker's own
// view: a hidden foe is never a target, and asking about a hidden combatant
// is refused exactly as a made-up id is.
import { describe, expect, it } from 'vitest';
import { fixedRng, getEncounter, scenario, type Json, type Scenario, type Viewer } from '@tablekeeper/engine';
import { countingIds } from '@tablekeeper/engine/testing';
import type { ActionsAnswer, TurnAction } from '../../src/actions.js';
import { ruleset as kleptoRuleset } from '../../src/kleptonomicon/index.js';
import { passChance } from '../../src/kleptonomicon/roll.js';
import { ANN as TSW_ANN, ORC as TSW_ORC, fight as tswFight, table as tswTable } from '../36th-way/setup.js';
import { DhTable, player as dhPlayer } from '../daggerheart/helpers.js';
import { osrTable } from '../osr/helpers.js';
import { boudica, enemy, fight as teamsFight, sheetFor, table as teamsTable, turnTo } from '../teams/helpers.js';

const GM: Viewer = { role: 'gm' };

function actions(s: Scenario, viewer: Viewer, ns: string, combatantId: string): ActionsAnswer {
  const r = s.engine.query(s.table, viewer, `${ns}.actions`, { combatantId });
  if (!r.ok) throw new Error(`${ns}.actions: ${r.error.code} ${r.error.message}`);
  return r.value as unknown as ActionsAnswer;
}
const find = (a: ActionsAnswer, id: string): TurnAction => {
  const x = a.actions.find((y) => y.id === id);
  if (x === undefined) throw new Error(`no action ${id} among ${a.actions.map((y) => y.id).join(', ')}`);
  return x;
};
/** What the web form sends: the fixed fields, the picked target and the first of each choice. */
function payload(act: TurnAction, target: string | null): { [k: string]: Json } {
  const out: { [k: string]: Json } = { ...act.fixed };
  if (act.target !== null && target !== null) out[act.target.field] = act.target.multiple ? [target] : target;
  // An offered empty value ("none") leaves the field out, as the web's form does.
  for (const c of act.choices) if (c.options[0]!.value !== '') out[c.field] = c.options[0]!.value;
  for (const n of act.numbers) out[n.field] = n.value;
  for (const f of act.flags) out[f.field] = f.value;
  for (const x of act.texts) out[x.field] = x.value;
  return out;
}
function oddsArgs(act: TurnAction, p: { [k: string]: Json }): { [k: string]: Json } {
  const args: { [k: string]: Json } = { ...act.odds!.args };
  for (const k of act.odds!.pass) if (p[k] !== undefined) args[k] = typeof p[k] === 'number' ? (p[k] as number) + (act.odds!.shift?.[k] ?? 0) : p[k]!;
  return args;
}

// ---------------------------------------------------------------- OSR (001)

function osrNight() {
  const t = osrTable();
  const seat = t.seat('Ana');
  const kira = t.add('Kira', { maxHp: 10, dex: 14, str: 12, ac: 12 }, 'pc', seat);
  const bo = t.add('Bo', { maxHp: 8, dex: 8 }, 'pc');
  const goblin = t.add('Goblin', { maxHp: 5, dex: 10, ac: 11 }, 'npc');
  const lurkerTx = t.run({ type: 'character.add', name: 'Lurker', kind: 'npc', visibility: 'hidden', stats: { maxHp: 5, dex: 9, ac: 13 } });
  const lurker = String(lurkerTx.kind === 'command' ? lurkerTx.events[0]!['id'] : '');
  t.run({
    type: 'encounter.start',
    combatants: [
      { id: 'k', name: 'Kira', kind: 'pc', side: 'party', characterId: kira, stats: { dex: 14 } },
      { id: 'b', name: 'Bo', kind: 'pc', side: 'party', characterId: bo, stats: { dex: 8 } },
      { id: 'g', name: 'Goblin', kind: 'npc', side: 'foes', characterId: goblin, stats: { dex: 10 } },
      { id: 'l', name: 'Lurker', kind: 'npc', side: 'foes', characterId: lurker, stats: { dex: 9 }, visibility: 'hidden' },
    ],
  });
  return { t, seat, kira, bo, goblin, lurker, ana: { role: 'player', seatId: seat } as Viewer };
}

describe('osr.actions (001 "Types of Actions")', () => {
  it('Kira\'s turn: Attack costs the active action and targets the foes first, then Move and Quick; the attack it builds is the odds query\'s and the command\'s', () => {
    const { t, kira, goblin, bo, lurker } = osrNight();
    expect(getEncounter(t.world).current).toBe('k');
    const a = actions(t.s, GM, 'osr', 'k');
    expect(a).toMatchObject({ combatantId: 'k', name: 'Kira', onTurn: true });
    const attack = find(a, 'attack');
    expect(attack).toMatchObject({ cost: '1 active action', command: 'osr.attack', fixed: { attackerId: kira }, allowed: true, odds: { query: 'osr.attackOdds' } });
    // Enemies first: the Goblin (and, for the GM, the Lurker), then Bo.
    expect(attack.target!.options.map((o) => o.value)).toEqual([goblin, lurker, bo]);
    expect(find(a, 'move')).toMatchObject({ command: 'osr.move', fixed: { characterId: 'k' }, cost: '1 movement action', numbers: [{ field: 'feet', value: 30 }], allowed: true });
    // Quick action is osr.quick with what it is, for the log (ADR 44); no tick while the quick action pays.
    expect(find(a, 'quick')).toMatchObject({ command: 'osr.quick', fixed: { characterId: 'k' }, cost: '1 quick action', texts: [{ field: 'what', label: 'What it is' }], flags: [], allowed: true });
    const p = payload(attack, goblin);
    const odds = t.s.engine.query(t.s.table, GM, attack.odds!.query, oddsArgs(attack, p));
    // Kira: DEX 14 does not matter in melee; STR 12 is +1 against AC 11: 1d20 + 1 >= 11 on 10..20, 11 faces of 20.
    expect(odds).toMatchObject({ ok: true, value: { hit: expect.closeTo(11 / 20, 12) as unknown as number, ac: 11, modifier: 1 } });
    t.dice.queue(15, 3);
    t.run({ type: attack.command, ...p });
    expect(find(actions(t.s, GM, 'osr', 'k'), 'attack')).toMatchObject({ allowed: false });
  });

  it('GM review: foes added without an AC are no targets, and the refusal names them and what they lack', () => {
    const t = osrTable();
    const kira = t.add('Kira', { maxHp: 10, dex: 14, ac: 12 }, 'pc');
    t.run({
      type: 'encounter.start',
      combatants: [
        { id: 'k', name: 'Kira', kind: 'pc', side: 'party', characterId: kira, stats: { dex: 14 } },
        { id: 'g1', name: 'Ordinary foe 1', kind: 'npc', side: 'foes', stats: { dex: 10 } },
        { id: 'g2', name: 'Ordinary foe 2', kind: 'npc', side: 'foes', stats: { dex: 10 } },
      ],
    });
    const attack = find(actions(t.s, GM, 'osr', 'k'), 'attack');
    expect(attack.allowed).toBe(false);
    expect(attack.reason).toBe('nobody this view can see to attack: Ordinary foe 1 and Ordinary foe 2 have no AC to roll against (give it one with Set AC under Adjust on its row, or in its stat block or quick stats when it is added)');
  });

  it('a foe that joined without an AC gets one from its row: encounter.link gives its combatant a character with AC 10, and Kira (STR 10, +0) hits it on 10 or more, 11 faces of 20', () => {
    const t = osrTable();
    const kira = t.add('Kira', { maxHp: 10, dex: 14, ac: 12 }, 'pc');
    t.run({
      type: 'encounter.start',
      combatants: [
        { id: 'k', name: 'Kira', kind: 'pc', side: 'party', characterId: kira, stats: { dex: 14 } },
        { id: 'g1', name: 'Ordinary foe 1', kind: 'npc', side: 'foes', stats: { dex: 10, hp: 4, maxHp: 4 } },
      ],
    });
    const foe = t.add('Ordinary foe 1', { ac: 10, hp: 4, maxHp: 4, dex: 10 }, 'npc');
    const tx = t.run({ type: 'encounter.link', characterId: 'g1', playsId: foe });
    expect(t.events(tx)).toContain('encounter.linked');
    expect(getEncounter(t.world).combatants['g1']!.characterId).toBe(foe);
    const attack = find(actions(t.s, GM, 'osr', 'k'), 'attack');
    expect(attack.allowed).toBe(true);
    expect(attack.target!.options.map((o) => o.value)).toEqual([foe]);
    const odds = t.s.engine.query(t.s.table, GM, attack.odds!.query, oddsArgs(attack, payload(attack, foe)));
    expect(odds).toMatchObject({ ok: true, value: { hit: expect.closeTo(11 / 20, 12) as unknown as number, ac: 10 } });
    // Linked once: a second link, or a character already in the fight, is refused with the field named.
    expect(t.s.fail({ type: 'encounter.link', characterId: 'g1', playsId: foe })).toMatchObject({ code: 'ALREADY_LINKED', path: 'characterId' });
    expect(t.s.fail({ type: 'encounter.link', characterId: 'k', playsId: foe })).toMatchObject({ code: 'ALREADY_LINKED', path: 'characterId' });
    expect(t.s.fail({ type: 'encounter.link', characterId: 'g1', playsId: 'ghost' })).toMatchObject({ code: 'ALREADY_LINKED' });
    t.s.undo();
    expect(getEncounter(t.world).combatants['g1']!.characterId).toBe(null);
    expect(t.s.fail({ type: 'encounter.link', characterId: 'g1', playsId: 'ghost' })).toMatchObject({ code: 'NOT_FOUND', path: 'playsId' });
  });

  it('GM review: the form starts from the attacker\'s numbers (a stat block\'s attack bonus +3 and damage 1d8; a PC with proficiency on the sheet is proficient), and a downed foe is listed after the living', () => {
    const t = osrTable();
    const kira = t.add('Kira', { maxHp: 10, dex: 14, ac: 12, proficiency: 2 }, 'pc');
    const down = t.add('Goblin 1', { hp: 0, maxHp: 5, ac: 13, attackBonus: 3, damage: '1d8' }, 'npc');
    const up = t.add('Goblin 2', { hp: 5, maxHp: 5, ac: 13, attackBonus: 3, damage: '1d8' }, 'npc');
    t.run({
      type: 'encounter.start',
      combatants: [
        { id: 'k', name: 'Kira', kind: 'pc', side: 'party', characterId: kira, stats: { dex: 14 } },
        { id: 'g1', name: 'Goblin 1', kind: 'npc', side: 'foes', characterId: down, stats: { dex: 12 } },
        { id: 'g2', name: 'Goblin 2', kind: 'npc', side: 'foes', characterId: up, stats: { dex: 10 } },
      ],
    });
    const kiraAttack = find(actions(t.s, GM, 'osr', 'k'), 'attack');
    expect(kiraAttack.flags[0]).toMatchObject({ field: 'proficient', value: true });
    expect(kiraAttack.target!.options.map((o) => [o.label, o.note])).toEqual([['Goblin 2', undefined], ['Goblin 1', 'down']]);
    const goblin = find(actions(t.s, GM, 'osr', 'g2'), 'attack');
    expect(goblin.numbers.find((n) => n.field === 'bonus')!.value).toBe(3);
    expect(goblin.texts[0]!.value).toBe('1d8');
    expect(goblin.flags[0]!.value).toBe(false);
    // +3 against Kira's AC 12: a d20 of 9 or more, 12 faces of 20.
    const odds = t.s.engine.query(t.s.table, GM, goblin.odds!.query, oddsArgs(goblin, payload(goblin, kira)));
    expect(odds).toMatchObject({ ok: true, value: { hit: expect.closeTo(12 / 20, 12) as unknown as number } });
  });

  it('a foe lined up from a stat block attacks with its attack bonus and damage prefilled (001 "NPC Attacks"): Goblin +3 vs AC 12 hits on 9..20, 60%', () => {
    const t = osrTable();
    const kira = t.add('Kira', { maxHp: 10, dex: 8, ac: 12 }, 'pc');
    const gob = t.add('Goblin', { maxHp: 5, dex: 14, ac: 13, attackBonus: 3, damage: '1d6+1' }, 'npc');
    t.run({
      type: 'encounter.start',
      combatants: [
        { id: 'g', name: 'Goblin', kind: 'npc', side: 'foes', characterId: gob, stats: { dex: 14 } },
        { id: 'k', name: 'Kira', kind: 'pc', side: 'party', characterId: kira, stats: { dex: 8 } },
      ],
    });
    const attack = find(actions(t.s, GM, 'osr', 'g'), 'attack');
    expect(attack.numbers.find((n) => n.field === 'bonus')!.value).toBe(3);
    expect(attack.texts.find((x) => x.field === 'damage')!.value).toBe('1d6+1');
    const odds = t.s.engine.query(t.s.table, GM, attack.odds!.query, oddsArgs(attack, payload(attack, kira)));
    expect(odds).toMatchObject({ ok: true, value: { hit: expect.closeTo(12 / 20, 12) as unknown as number, ac: 12 } });
  });

  it('Move is osr.move: the feet and the way are picked, and the log says how far (001 "Movement Actions")', () => {
    const { t } = osrNight();
    const move = find(actions(t.s, GM, 'osr', 'k'), 'move');
    expect(move.choices[0]!.options.map((o) => o.value)).toEqual(['walk', 'climb', 'swim', 'crawl', 'difficult']);
    t.run({ type: move.command, ...move.fixed, feet: 20, mode: 'walk' });
    expect(t.s.world.log.at(-1)!.text).toMatch(/^Kira moves 20': 20' of \d+' used this turn\.$/);
    // The rest of this movement action's feet cost nothing more; the quick action is still its own.
    const after = actions(t.s, GM, 'osr', 'k');
    expect(find(after, 'move')).toMatchObject({ allowed: true, cost: expect.stringMatching(/^free \(\d+' left this turn\)$/) as unknown as string });
    expect(find(after, 'quick').cost).toBe('1 quick action');
  });

  it('an active action trades down: with the movement and quick actions spent, Move is still allowed (paid by the active action), then nothing is (001 "Movement" / "Active")', () => {
    const { t } = osrNight();
    t.run({ type: 'encounter.spend', combatant: 'k', kind: 'movement' });
    t.run({ type: 'encounter.spend', combatant: 'k', kind: 'quick' });
    const a = actions(t.s, GM, 'osr', 'k');
    expect(find(a, 'move').allowed).toBe(true);
    // The button says what it would pay with before the click (GM review: Move silently took the goblin's attack).
    expect(find(a, 'move').cost).toBe('the active action (the movement action is spent)');
    expect(find(a, 'quick').cost).toBe('the active action (the quick action is spent)');
    // Paying with the active action takes a tick of its own, never the default (ADR 44).
    expect(find(a, 'move').flags).toEqual([{ field: 'withActive', label: 'Pay with the active action', value: false }]);
    expect(find(a, 'quick').flags).toEqual([{ field: 'withActive', label: 'Pay with the active action', value: false }]);
    expect(find(a, 'attack').allowed).toBe(true);
    t.run({ type: 'encounter.spend', combatant: 'k', kind: 'movement' });
    const b = actions(t.s, GM, 'osr', 'k');
    expect(['attack', 'move', 'quick'].map((id) => find(b, id).allowed)).toEqual([false, false, false]);
    expect(find(b, 'attack').reason).toMatch(/active/);
  });

  it('a player\'s phone: the hidden Lurker is never a target; asking about it is the made-up id\'s NOT_FOUND; another player\'s combatant is FORBIDDEN', () => {
    const { t, ana, goblin, bo, lurker } = osrNight();
    const a = actions(t.s, ana, 'osr', 'k');
    const targets = find(a, 'attack').target!.options.map((o) => o.value);
    expect(targets).toEqual([goblin, bo]);
    expect(JSON.stringify(a)).not.toContain(lurker);
    expect(JSON.stringify(a)).not.toContain('Lurker');
    const hidden = t.s.engine.query(t.s.table, ana, 'osr.actions', { combatantId: 'l' });
    const madeUp = t.s.engine.query(t.s.table, ana, 'osr.actions', { combatantId: 'zz' });
    expect(hidden.ok).toBe(false);
    expect(madeUp.ok).toBe(false);
    if (!hidden.ok && !madeUp.ok) {
      expect(hidden.error.code).toBe('NOT_FOUND');
      expect(hidden.error.message.replace('"l"', 'X')).toBe(madeUp.error.message.replace('"zz"', 'X'));
    }
    expect(t.s.engine.query(t.s.table, ana, 'osr.actions', { combatantId: 'b' })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(t.s.engine.query(t.s.table, { role: 'spectator' }, 'osr.actions', { combatantId: 'k' })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(t.s.engine.query(t.s.table, ana, 'osr.actions', { combatantId: 7 })).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'combatantId' } });
  });
});

describe('osr.actions: the rules beyond attacking (GM review: stabilize, checks and morale only in "Any command")', () => {
  it('001 "Stabilizing & Injuries": with Bo at 0 HP, Kira\'s Stabilize targets only Bo, with WIS first and DC 10; its odds are d20 + WIS mod vs 10, and a passed check rolls the Injury Table', () => {
    const { t, kira, bo, ana } = osrNight();
    t.run({ type: 'osr.setSheet', characterId: kira, sheet: { wis: 14 } });
    expect(find(actions(t.s, GM, 'osr', 'k'), 'stabilize')).toMatchObject({ allowed: false, reason: 'nobody in view is dying (at 0 HP and not yet stabilized)' });
    t.run({ type: 'osr.damage', targetId: bo, amount: 20 });
    for (const viewer of [GM, ana]) {
      const st = find(actions(t.s, viewer, 'osr', 'k'), 'stabilize');
      expect(st).toMatchObject({ command: 'osr.stabilize', fixed: { helperId: kira, method: 'check' }, allowed: true, odds: { query: 'osr.checkOdds' } });
      expect(st.target!.options).toEqual([{ value: bo, label: 'Bo', note: 'dying', side: 'ally', standing: 'down' }]);
      expect(st.choices[0]!.options[0]!.value).toBe('wis');
      const p = payload(st, bo);
      // WIS 14 is +2: 1d20 + 2 >= 10 on 8..20, 13 faces of 20.
      expect(t.s.engine.query(t.s.table, viewer, st.odds!.query, oddsArgs(st, p))).toMatchObject({ ok: true, value: { pass: expect.closeTo(13 / 20, 12) as unknown as number, modifier: 2, difficulty: 10 } });
    }
    const st = find(actions(t.s, ana, 'osr', 'k'), 'stabilize');
    t.dice.queue(4);
    const failed = t.s.run({ type: st.command, ...payload(st, bo) }, ana);
    expect(failed.kind).toBe('command');
    // The log names Bo, never his id (GM review: "Kira failed stabilize ch-...").
    expect(t.world.log.at(-1)!.text).toBe('Kira failed stabilizing Bo: d20 4 +2 = 6 vs 10.');
    expect(t.world.log.at(-1)!.text).not.toContain(bo);
    // A table stored before checks named the dying kept the id in the label ("stabilize <id>"): replayed, its line names Bo too.
    const stored = [...t.s.table.transactions].map((tx) =>
      tx.kind === 'command' ? { ...tx, events: tx.events.map((e) => (e.type === 'osr.checked' && e['kind'] === 'stabilize' ? { ...e, label: `stabilize ${bo}` } : e)) } : tx,
    );
    expect(t.s.engine.replay(t.s.table.genesis, stored).world.log.at(-1)!.text).toBe('Kira failed stabilizing Bo: d20 4 +2 = 6 vs 10.');
    t.dice.queue(12, 15);
    t.s.run({ type: st.command, ...payload(st, bo) }, ana);
    expect(t.world.log.map((l) => l.text).join('\n')).toContain('Kira passed stabilizing Bo: d20 12 +2 = 14 vs 10.');
    expect(t.osr.dying[bo]).toBeUndefined();
    expect(find(actions(t.s, GM, 'osr', 'k'), 'stabilize').allowed).toBe(false);
  });

  it('001 "Saves & Checks": an ability check costs no action, prices d20 + the ability\'s modifier vs the DC, and the command it builds rolls that check', () => {
    const { t, kira, ana } = osrNight();
    t.run({ type: 'encounter.spend', combatant: 'k', kind: 'active' });
    const check = find(actions(t.s, ana, 'osr', 'k'), 'check');
    expect(check).toMatchObject({ command: 'osr.check', fixed: { characterId: kira }, allowed: true, cost: 'no action (the GM calls for it)' });
    const p = { ...payload(check, null), ability: 'dex', difficulty: 15, proficient: true };
    // DEX 14 is +2, proficiency at level 1 is +2 (001): 1d20 + 4 >= 15 on 11..20, 10 faces of 20.
    expect(t.s.engine.query(t.s.table, ana, check.odds!.query, oddsArgs(check, p))).toMatchObject({ ok: true, value: { pass: expect.closeTo(10 / 20, 12) as unknown as number, modifier: 4, difficulty: 15 } });
    t.dice.queue(11);
    t.s.run({ type: check.command, ...p }, ana);
    expect(t.world.log.at(-1)!.text).toBe('Kira passed a check: d20 11 +4 = 15 vs 15.');
  });

  it('001 "Morale": only the GM gets Morale check, aimed at whoever could check (the monsters first, then the PCs, who roll alone), DC 11 on WIS; it rolls one check for the side', () => {
    const { t, goblin, lurker, ana, kira, bo } = osrNight();
    expect(actions(t.s, ana, 'osr', 'k').actions.map((x) => x.id)).not.toContain('morale');
    const morale = find(actions(t.s, GM, 'osr', 'k'), 'morale');
    expect(morale).toMatchObject({ command: 'osr.morale', allowed: true, target: { field: 'characterIds', multiple: true, max: 4 }, odds: { query: 'osr.moraleOdds' } });
    expect(morale.target!.options.map((o) => o.value)).toEqual([goblin, lurker, kira, bo]);
    t.dice.queue(14);
    t.run({ type: morale.command, ...payload(morale, goblin) });
    // The Goblin: WIS 10 (+0), no morale bonus: 14 against DC 11 holds.
    expect(t.world.log.at(-1)!.text).toBe('Morale for the foes, Goblin (the GM called for it): d20 14 = 14 vs 11: they stand and fight.');
  });
});

describe('a creature that cannot act (001 "Death & Injury") and whom Stabilize offers first', () => {
  it('Kira at 0 HP: Attack, Move, Quick action and Ability check are not offered, each saying why; Bo sees the dying Kira before the dying Goblin', () => {
    const { t, kira, bo, goblin } = osrNight();
    t.run({ type: 'osr.damage', targetId: goblin, amount: 5 });
    t.run({ type: 'osr.damage', targetId: kira, amount: 10 });
    const a = actions(t.s, GM, 'osr', 'k');
    for (const id of ['attack', 'move', 'quick', 'check']) expect(find(a, id)).toMatchObject({ allowed: false, reason: 'Kira is at 0 HP: incapacitated and unable to act until healed or stabilized back to 1 HP' });
    // Bo's Stabilize: his ally Kira first (the Goblin went down first and is earlier in the order).
    const st = find(actions(t.s, GM, 'osr', 'b'), 'stabilize');
    expect(st.target!.options.map((o) => o.value)).toEqual([kira, goblin]);
    expect(bo).toBeTruthy();
  });
});

describe('the morale check form on a goblin\'s turn (001 "Morale Checks", "Side, Group, or Individual")', () => {
  it('Goblin 2 acts: every goblin could check and all four are ticked (Goblin 2 first, then join order), the PCs offered after; odds d20 +1 WIS +2 morale >= 11 = 13/20; as a side the log speaks for the foes', () => {
    const t = osrTable();
    const kira = t.add('Kira', { maxHp: 10, dex: 14, wis: 10 }, 'pc');
    const gobs = [1, 2, 3, 4].map((i) => t.add(`Goblin ${i}`, { maxHp: 5, dex: 10 + i, ac: 11, wis: 12, moraleBonus: 2 }, 'npc'));
    t.run({
      type: 'encounter.start',
      combatants: [{ id: 'k', name: 'Kira', kind: 'pc', side: 'party', characterId: kira, stats: { dex: 9 } }, ...gobs.map((g, i) => ({ id: `g${i + 1}`, name: `Goblin ${i + 1}`, kind: 'npc' as const, side: 'foes', characterId: g }))],
    });
    // DEX order: Kira and Goblin 4 (14, the PC first), Goblin 3, Goblin 2 (12).
    for (let i = 0; i < 3; i++) t.run({ type: 'encounter.endTurn' });
    expect(getEncounter(t.world).current).toBe('g2');
    const morale = find(actions(t.s, GM, 'osr', 'g2'), 'morale');
    expect(morale.target!.options.map((o) => o.label)).toEqual(['Goblin 2', 'Goblin 1', 'Goblin 3', 'Goblin 4', 'Kira']);
    expect(morale.target!.picked).toEqual([gobs[1], gobs[0], gobs[2], gobs[3]]);
    // WIS 12 is +1, morale bonus +2: a d20 of 8 or more holds against DC 11, 13 faces of 20.
    const odds = t.s.engine.query(t.s.table, GM, 'osr.moraleOdds', { characterIds: [gobs[1]!] });
    expect(odds).toMatchObject({ ok: true, value: { pass: expect.closeTo(13 / 20, 12) as unknown as number, modifier: 3, wis: 1, proficiency: 0, moraleBonus: 2, difficulty: 11 } });
    t.dice.queue(7);
    t.run({ type: 'osr.morale', characterIds: [gobs[1]!, gobs[3]!, gobs[2]!, gobs[0]!], as: 'side', trigger: 'Goblin 1 fell' });
    expect(t.world.log.at(-1)!.text).toBe('Morale for the foes, Goblin 2 rolling for 4 (Goblin 1 fell): d20 7 +3 = 10 vs 11: they surrender or flee.');
    // A group reads as before.
    t.dice.queue(8);
    t.run({ type: 'osr.morale', characterIds: [gobs[0]!, gobs[2]!], as: 'group', trigger: 'the tide turns' });
    expect(t.world.log.at(-1)!.text).toBe("Morale for Goblin 1's group (2) (the tide turns): d20 8 +3 = 11 vs 11: they stand and fight.");
  });
});

// ---------------------------------------------------------------- The 36th Way (002)

describe('36th-way.actions (002 "Action Types", "Positioning", "Disengaging")', () => {
  it('Ann engaged with the Orc: Attack (a standard action) reaches it; Disengage is a move action against 11; each target carries its range', () => {
    const t = tswFight();
    const a = actions(t.s, GM, '36th-way', 'ann');
    const attack = find(a, 'attack');
    expect(attack).toMatchObject({ cost: '1 standard action', command: '36th-way.attack', allowed: true, target: { field: 'targetIds', multiple: true } });
    expect(attack.target!.options).toEqual([{ value: 'orc', label: 'Orc', note: 'engaged', side: 'foe' }]);
    expect(find(a, 'disengage')).toMatchObject({ allowed: true, command: '36th-way.disengage' });
    expect(find(a, 'disengage').cost).toContain('11');
    expect(find(a, 'stance')).toMatchObject({ cost: '1 quick action', fixed: { who: 'ann', stance: 'ranged' } });
    // The odds the form asks are 36th-way.attackOdds's: Ann +4 vs AC 14 needs a natural 10 (see queries.test.ts).
    const p = payload(attack, 'orc');
    expect(t.s.engine.query(t.s.table, GM, '36th-way.attackOdds', oddsArgs(attack, p))).toMatchObject({ ok: true, value: { needed: 10, defense: 'ac' } });
  });

  it('a fallen foe is marked in the target list as it is on the tracker (review 13 #7): the dead Orc reads "dead, engaged"', () => {
    const t = tswFight();
    t.s.run({ type: '36th-way.damage', targetId: 'orc', amount: 20 });
    const options = find(actions(t.s, GM, '36th-way', 'ann'), 'attack').target!.options;
    expect(options).toEqual([{ value: 'orc', label: 'Orc', note: 'dead, engaged', side: 'foe', standing: 'dead' }]);
  });

  it('Far from the Orc a basic melee attack reaches nobody: Move engages in two move actions, the standard one paying the second (002 "Far": two moves to engage)', () => {
    const t = tswFight();
    t.s.run({ type: '36th-way.position', a: 'ann', b: 'orc', range: 'far' });
    const a = actions(t.s, GM, '36th-way', 'ann');
    expect(find(a, 'attack').target!.options[0]).toMatchObject({ value: 'orc', note: 'far', refused: "out of a basic melee attack's reach: move to engage first" });
    // Ann is in the melee stance: a basic attack reaches only the engaged (review 9). The ranged stance would reach
    // far (rangedReach defaults to far), but takes a switch first, and the reason says both ways.
    expect(find(a, 'attack')).toMatchObject({ allowed: false, reason: 'no enemy engaged with Ann — move to engage one first, or switch to the ranged stance (a quick action)' });
    expect(find(a, 'disengage')).toMatchObject({ allowed: false, reason: 'Ann is not engaged with an enemy' });
    const move = find(a, 'move');
    expect(move).toMatchObject({ command: '36th-way.move', fixed: { who: 'ann' }, target: { field: 'to' }, allowed: true });
    t.s.run({ type: move.command, ...payload(move, 'orc') });
    const b = actions(t.s, GM, '36th-way', 'ann');
    expect(find(b, 'attack').target!.options[0]).toMatchObject({ value: 'orc', note: 'engaged' });
    // Both the move and the standard action paid for the two steps: no attack, no move left this turn.
    expect(find(b, 'attack')).toMatchObject({ allowed: false });
    expect(find(b, 'move')).toMatchObject({ allowed: false });
  });
});

describe('36th-way.actions: Rally, Stabilize, Intercept, Delay, Ready (GM review: reachable only through "Any command")', () => {
  /** Ann and Bea (PCs, Fast) against an Orc (Medium); Ann's turn, nobody engaged yet. */
  function party() {
    const t = tswTable();
    t.s.run({ type: '36th-way.sheet.set', sheet: { ...TSW_ANN, recoveries: 2 } as unknown as Json });
    t.s.run({ type: '36th-way.sheet.set', sheet: { ...TSW_ANN, id: 'bea', name: 'Bea' } as unknown as Json });
    t.s.run({ type: '36th-way.sheet.set', sheet: TSW_ORC as unknown as Json });
    t.s.run({
      type: 'encounter.start',
      combatants: [
        { id: 'ann', name: 'Ann', kind: 'pc', side: 'party', band: 'fast' },
        { id: 'bea', name: 'Bea', kind: 'pc', side: 'party', band: 'fast' },
        { id: 'orc', name: 'Orc', kind: 'npc', side: 'foes', band: 'medium' },
      ],
    });
    tswTurnTo(t.s, 'ann');
    return t;
  }
  /** End turns (choosing `id` when the band asks who goes) until it is `id`'s turn. */
  function tswTurnTo(s: Scenario, id: string): void {
    for (let i = 0; i < 10 && getEncounter(s.world).current !== id; i++) {
      const e = getEncounter(s.world);
      if (e.pending !== null) s.run({ type: 'encounter.choose', id: e.pending.options.includes(id) ? id : e.pending.options[0]! });
      else s.run({ type: 'encounter.endTurn' });
    }
    expect(getEncounter(s.world).current).toBe(id);
  }

  it('002 "Rally": a standard action spending a recovery; with 2 recoveries Ann heals 1d8+3 (5 on a 2) and the cost then says 1 left', () => {
    const t = party();
    t.s.run({ type: '36th-way.damage', targetId: 'ann', amount: 10 });
    const rally = find(actions(t.s, GM, '36th-way', 'ann'), 'rally');
    expect(rally).toMatchObject({ command: '36th-way.rally', fixed: { characterId: 'ann' }, cost: '1 standard action, 1 recovery (2 left)', allowed: true, choices: [] });
    t.dice.push(2);
    t.s.run({ type: rally.command, ...payload(rally, null) });
    expect(t.sheet('ann')).toMatchObject({ hp: 25, recoveries: 1 });
    const after = find(actions(t.s, GM, '36th-way', 'ann'), 'rally');
    expect(after.cost).toBe('1 standard action, 1 recovery (1 left)');
    // The standard action is spent: no second Rally this turn.
    expect(after.allowed).toBe(false);
    // Only PCs keep recoveries (002 "Recoveries"): the Orc is not offered Rally.
    expect(actions(t.s, GM, '36th-way', 'orc').actions.map((a) => a.id)).not.toContain('rally');
    expect(actions(t.s, GM, '36th-way', 'orc').actions.map((a) => a.id)).toContain('stabilize');
  });

  it('the attack picker lists the enemy the attacker is engaged with first, then foes in reach, allies after, and marks the dead and the out-of-reach (review 6)', () => {
    const t = party();
    t.s.run({ type: '36th-way.sheet.set', sheet: { ...(TSW_ORC as object), id: 'orc2', name: 'Orc 2' } as unknown as Json });
    t.s.run({ type: 'encounter.add', combatant: { id: 'orc2', name: 'Orc 2', kind: 'npc', side: 'foes', band: 'medium' } });
    t.s.run({ type: '36th-way.position', a: 'ann', b: 'orc', range: 'nearby' });
    t.s.run({ type: '36th-way.position', a: 'ann', b: 'orc2', range: 'engaged' });
    const attack = find(actions(t.s, GM, '36th-way', 'ann'), 'attack');
    expect(attack.target!.options.map((o) => [o.value, o.note, o.side])).toEqual([['orc2', 'engaged', 'foe'], ['orc', 'nearby', 'foe'], ['bea', expect.any(String), 'ally']]);
    // Ann's melee stance reaches the engaged Orc 2; the nearby Orc would take the ranged stance first (review 9).
    expect(attack.target!.options[0]!.refused).toBeUndefined();
    expect(attack.target!.options[1]!.refused).toBe("out of a basic melee attack's reach: move to engage first");
    // Orc 2 falls: still listed (the GM may pick anyone), marked dead, so the form's default is the living Orc.
    t.s.run({ type: '36th-way.damage', targetId: 'orc2', amount: 500 });
    expect(find(actions(t.s, GM, '36th-way', 'ann'), 'attack').target!.options.find((o) => o.value === 'orc2')).toMatchObject({ standing: 'dead' });
  });

  it('002 "Stabilize": offered for a dying ally only, at a standard action; the command it builds stabilizes Bea', () => {
    const t = party();
    expect(find(actions(t.s, GM, '36th-way', 'ann'), 'stabilize')).toMatchObject({ allowed: false, reason: 'no ally in view is dying' });
    t.s.run({ type: '36th-way.damage', targetId: 'bea', amount: 31 });
    expect(t.sheet('bea').dying).not.toBeNull();
    const st = find(actions(t.s, GM, '36th-way', 'ann'), 'stabilize');
    expect(st).toMatchObject({ cost: '1 standard action', allowed: true });
    expect(st.target!.options).toEqual([{ value: 'bea', label: 'Bea', note: 'dying' }]);
    const tx = t.s.run({ type: st.command, ...payload(st, 'bea') });
    expect(tx.kind === 'command' ? tx.events.map((e) => e['type']) : []).toContain('36th-way.stabilized');
  });

  it('002 "Intercept": a free action offered to Bea (Free, nearby) when the Orc moves to engage Ann; the command it builds engages the Orc with Bea', () => {
    const t = party();
    expect(find(actions(t.s, GM, '36th-way', 'bea'), 'intercept')).toMatchObject({ allowed: false, reason: 'no enemy has just moved to engage one of your allies' });
    tswTurnTo(t.s, 'orc');
    t.s.run({ type: '36th-way.move', who: 'orc', to: 'ann', range: 'engaged' });
    const i = find(actions(t.s, GM, '36th-way', 'bea'), 'intercept');
    expect(i).toMatchObject({ label: 'Intercept Orc', cost: 'free action', command: '36th-way.intercept', fixed: { interceptorId: 'bea', moverId: 'orc' }, allowed: true });
    t.s.run({ type: i.command, ...payload(i, null) });
    expect(find(actions(t.s, GM, '36th-way', 'bea'), 'attack').target!.options.find((o) => o.value === 'orc')).toMatchObject({ note: 'engaged' });
  });

  it('002 "Delaying your Turn" and "Readying an Action": Ann (Fast) may delay to Medium, Slow or Very slow on her turn, and ready a standard action with a trigger', () => {
    const t = party();
    const a = actions(t.s, GM, '36th-way', 'ann');
    expect(a.actions.filter((x) => x.id.startsWith('delay:')).map((x) => x.fixed)).toEqual([{ to: { band: 'medium' } }, { to: { band: 'slow' } }, { to: { band: 'very-slow' } }]);
    expect(find(actions(t.s, GM, '36th-way', 'bea'), 'ready')).toMatchObject({ allowed: false, reason: 'only on your own turn' });
    const ready = find(a, 'ready');
    expect(ready).toMatchObject({ command: 'encounter.ready', allowed: true });
    expect(ready.choices[0]!.options.map((o) => o.value)).toEqual(['standard', 'move', 'quick']);
    t.s.run({ type: ready.command, ...payload(ready, null), trigger: 'the Orc steps in' });
    expect(getEncounter(t.world).current).not.toBe('ann');
    const delay = find(actions(t.s, GM, '36th-way', 'bea'), 'delay:slow');
    t.s.run({ type: delay.command, ...payload(delay, null) });
    expect(getEncounter(t.world).combatants['bea']!.placement).toMatchObject({ band: 'slow' });
  });
});

// ---------------------------------------------------------------- Teams (003)

describe('teams.actions (003 "Actions in Combat")', () => {
  function boudicaTurn() {
    const { s, dice } = teamsTable();
    sheetFor(s, 'b', boudica);
    sheetFor(s, 'e', enemy());
    teamsFight(s, ['b'], ['e'], 'b');
    return { s, dice };
  }
  it('Attack is one of three actions, with the sheet\'s own weapons (the spear; the shield and sword are no weapons) against the visible enemy', () => {
    const { s } = boudicaTurn();
    const a = actions(s, GM, 'teams', 'b');
    const attack = find(a, 'attack');
    expect(attack).toMatchObject({ cost: '1 action', command: 'teams.attack', fixed: { attackerId: 'b' }, allowed: true, odds: { query: 'teams.attackOdds' } });
    expect(attack.choices[0]!.options).toEqual([{ value: 'spear', label: 'spear', note: 'in hand' }]);
    expect(attack.target!.options.map((o) => o.value)).toEqual(['e']);
    expect(find(a, 'resuscitate').cost).toBe('2 actions');
    expect(find(a, 'short-task').cost).toBe('3 actions');
    // Reactions answer an attack or a test: never a button that only spends (GM review). Block and Parry come with a hit (teams.reactions); Fortify, Resist and Dodge here are tests (teams.react).
    expect(a.actions.filter((x) => x.cost === 'the reaction').map((x) => [x.id, x.command])).toEqual([
      ['dodge', 'teams.react'],
      ['fortify', 'teams.react'],
      ['resist', 'teams.react'],
    ]);
    const odds = s.engine.query(s.table, GM, 'teams.attackOdds', oddsArgs(attack, payload(attack, 'e')));
    expect(odds).toMatchObject({ ok: true, value: { weapon: 'spear', evasion: 6 } });
  });
  it('after three actions nothing costing an action is allowed, Sprint needs a Move first, and free actions stay (003: three actions a turn)', () => {
    const { s } = boudicaTurn();
    expect(find(actions(s, GM, 'teams', 'b'), 'sprint').allowed).toBe(false);
    const move = find(actions(s, GM, 'teams', 'b'), 'move');
    s.run({ type: move.command, ...move.fixed });
    expect(find(actions(s, GM, 'teams', 'b'), 'sprint').allowed).toBe(true);
    s.run({ type: 'encounter.spend', combatant: 'b', kind: 'action', cost: 2 });
    const a = actions(s, GM, 'teams', 'b');
    expect(find(a, 'attack').allowed).toBe(false);
    expect(find(a, 'guard').allowed).toBe(false);
    expect(find(a, 'drop-prone')).toMatchObject({ cost: 'free', allowed: true });
    turnTo(s, 'e');
    expect(actions(s, GM, 'teams', 'b').onTurn).toBe(false);
  });
});

describe('teams: buttons that do what they say (GM review, issue 20)', () => {
  it('Resuscitate picks an unconscious ally and a test, and returns him to consciousness (003: Clementine and Roland); Guard leaves a condition and a log line', () => {
    const { s, dice } = teamsTable();
    sheetFor(s, 'b', boudica);
    sheetFor(s, 'r', { name: 'Roland', maxHealth: 8, health: 0, conscious: false });
    sheetFor(s, 'e', enemy());
    teamsFight(s, ['b', 'r'], ['e'], 'b');
    const res = find(actions(s, GM, 'teams', 'b'), 'resuscitate');
    expect(res).toMatchObject({ command: 'teams.act', fixed: { characterId: 'b', action: 'Resuscitate' }, cost: '2 actions', allowed: true });
    expect(res.target!.options).toEqual([{ value: 'r', label: 'Roland', side: 'ally', standing: 'down' }]);
    expect(res.choices.map((c) => [c.field, c.options.map((o) => o.value)])).toEqual([
      ['test.attribute', ['strength', 'dexterity']],
      ['test.skill', ['combat', 'athletics']],
      ['test.proficiency', ['martial', 'fortitude', '']],
    ]);
    // Strength d6 shows 6, athletics d4 shows 4, a luck die of 10 adds nothing: 10 against the default difficulty 10.
    dice.push(6, 4, 10);
    s.run({ ...res.fixed, type: res.command, targetId: 'r', test: { attribute: 'strength', skill: 'athletics' } });
    expect((s.world.ext['teams'] as { sheets: { [k: string]: { conscious: boolean } } }).sheets['r']!.conscious).toBe(true);
    expect(s.world.log.map((l) => l.text)).toContain('Boudica tried to resuscitate Roland: 10 against 10, conscious again.');
    // Nobody is unconscious now: the button says so instead of spending.
    expect(find(actions(s, GM, 'teams', 'b'), 'resuscitate')).toMatchObject({ allowed: false, reason: 'nobody here is unconscious' });
    const guard = find(actions(s, GM, 'teams', 'b'), 'guard');
    expect(guard).toMatchObject({ command: 'teams.act', allowed: true });
    s.run({ type: guard.command, ...guard.fixed });
    expect(Object.values(getEncounter(s.world).conditions).some((c) => c.target === 'b' && c.defId === 'guarding')).toBe(true);
    expect(s.world.log.some((l) => l.text === 'Boudica: Guard.')).toBe(true);
  });
});

// ---------------------------------------------------------------- The Kleptonomicon (004)

describe('kleptonomicon.actions (004 "Using Abilities", "Movement", "Interrupting Movement")', () => {
  const ALICE = 'ch-baaaaacaaaaa';
  function alicesTurn(): Scenario {
    const s = scenario(kleptoRuleset.modules, { rng: countingIds(fixedRng([9, 9, 3, ...Array.from({ length: 40 }, () => 5)])), rulesetId: 'kleptonomicon' });
    s.run({ type: 'seat.add', name: 'Ann' });
    s.run({ type: 'character.add', name: 'Alice', kind: 'pc', seatId: 'seat-1', stats: { abilities: [{ id: 'strike', name: 'Strike', time: 'beat' }] } });
    s.run({ type: 'kleptonomicon.startEpisode' });
    s.run({ type: 'kleptonomicon.freeplay' });
    s.run({
      type: 'encounter.start',
      combatants: [
        { id: 'guard1', name: 'Guard', kind: 'npc', stats: { creatureType: 'guard', edgeSave: 1 } },
        { id: 'c-alice', name: 'Alice', kind: 'pc', characterId: ALICE },
      ],
    });
    expect(getEncounter(s.world).current).toBe('c-alice');
    return s;
  }
  it('the maneuver costs a Beat and its odds are a Test at one extra Disadvantage reaching the defence; Move spends the 4u walk pool for free', () => {
    const s = alicesTurn();
    const ann: Viewer = { role: 'player', seatId: 'seat-1' };
    const a = actions(s, ann, 'kleptonomicon', 'c-alice');
    const m = find(a, 'maneuver');
    expect(m).toMatchObject({ cost: '1 Beat', command: 'kleptonomicon.attack', fixed: { attackerId: 'c-alice', maneuver: true }, allowed: true });
    expect(m.target!.options).toEqual([{ value: 'guard1', label: 'Guard', side: 'foe' }]);
    // A phone gets no odds against a foe: its Defense is the GM's (ADR 51).
    expect(s.engine.query(s.table, ann, m.odds!.query, oddsArgs(m, payload(m, 'guard1')))).toMatchObject({ ok: false, error: { code: 'VALUES_HIDDEN', path: 'targetId' } });
    // The GM's own form (with its Defense box, ADR 56) asks the odds.
    const g = find(actions(s, GM, 'kleptonomicon', 'c-alice'), 'maneuver');
    const r = s.engine.query(s.table, GM, g.odds!.query, oddsArgs(g, payload(g, 'guard1')));
    // Defence 7 with one Disadvantage: the lower of two d10ish dice must show 7 or more.
    expect(r).toMatchObject({ ok: true, value: { pass: passChance({ modifier: 0, advantage: -1 }, 6), failAtOrBelow: 6 } });
    // (Each die: 7, 8, 9 at 2/20 and 10 at 1/20 = 7/20; both dice: 49/400.)
    expect((r as unknown as { value: { pass: number } }).value.pass).toBeCloseTo(49 / 400, 12);
    expect(find(a, 'move')).toMatchObject({ cost: 'free (movement: 4u left this turn)', numbers: [{ field: 'units', max: 4 }] });
    expect(find(a, 'test')).toMatchObject({ fixed: { characterId: ALICE }, odds: { query: 'kleptonomicon.testOdds' } });
  });
  it("the maneuver's Defense comes from the target the GM picks (its stats, else its sheet); a phone, which sees no foe's stats, has no Defense box (ADR 56)", () => {
    const s = alicesTurn();
    s.run({ type: 'encounter.setStats', characterId: 'guard1', stats: { creatureType: 'guard', edgeSave: 1, defense: 9 } });
    s.run({ type: 'character.add', name: 'Bram', kind: 'pc', stats: { defense: 4 } });
    const bram = Object.values(s.world.characters).find((c) => c.name === 'Bram')!.id;
    s.run({ type: 'encounter.add', combatant: { id: 'c-bram', name: 'Bram', kind: 'pc', characterId: bram } });
    const m = find(actions(s, GM, 'kleptonomicon', 'c-alice'), 'maneuver');
    expect(m.target!.options).toEqual([
      { value: 'guard1', label: 'Guard', side: 'foe', note: 'Defense 9', sets: { defense: 9 } },
      { value: 'c-bram', label: 'Bram', side: 'ally', note: 'Defense 4', sets: { defense: 4 } },
    ]);
    // The box starts at the first target's Defense; the odds say where the extra Disadvantage comes from.
    expect(m.numbers.find((n) => n.field === 'defense')!.value).toBe(9);
    expect(m.odds).toMatchObject({ query: 'kleptonomicon.attackOdds', args: { maneuver: true }, note: 'includes 1 Disadvantage for the improvised maneuver' });
    // Against Defense 9 with one Advantage to cancel the maneuver's die: one d10ish die shows 9 (2/20) or 10 (1/20), 3/20.
    const r = s.engine.query(s.table, GM, m.odds!.query, oddsArgs(m, { ...payload(m, 'guard1'), advantage: 1, defense: 9 }));
    expect((r as unknown as { value: { pass: number } }).value.pass).toBeCloseTo(3 / 20, 12);
    const phone = find(actions(s, { role: 'player', seatId: 'seat-1' }, 'kleptonomicon', 'c-alice'), 'maneuver');
    expect(phone.target!.options[0]).toEqual({ value: 'guard1', label: 'Guard', side: 'foe' });
    // The phone types no number at all: the Test modifier and the maneuver's Disadvantage are shown (review 9).
    expect(phone.numbers).toEqual([]);
    expect(phone.texts.map((t) => [t.field, t.readOnly])).toEqual([['modifier', true], ['advantage', true], ['damage', true]]);
  });
  it('two Beats a round: after two abilities the maneuver is refused with the reason, movement and the Test stay', () => {
    const s = alicesTurn();
    s.run({ type: 'kleptonomicon.useAbility', combatantId: 'c-alice', abilityId: 'strike' });
    s.run({ type: 'kleptonomicon.useAbility', combatantId: 'c-alice', abilityId: 'strike' });
    const a = actions(s, GM, 'kleptonomicon', 'c-alice');
    expect(find(a, 'maneuver').allowed).toBe(false);
    expect(find(a, 'maneuver').reason).toBe('Alice has no Beat left this round');
    expect(find(a, 'move').allowed).toBe(true);
    expect(find(a, 'test').allowed).toBe(true);
    // The sheet's own ability says the same, at its cost.
    expect(find(a, 'ability:strike')).toMatchObject({ label: 'Strike', cost: '1 Beat', allowed: false, reason: 'Alice has no Beat left this round' });
  });
  it('GM review: the sheet\'s abilities, a free action, and for the GM a granted style and an interruption, each building a command the engine takes', () => {
    const s = alicesTurn();
    const ann: Viewer = { role: 'player', seatId: 'seat-1' };
    const a = actions(s, ann, 'kleptonomicon', 'c-alice');
    const strike = find(a, 'ability:strike');
    expect(strike).toMatchObject({ cost: '1 Beat', command: 'kleptonomicon.useAbility', fixed: { combatantId: 'c-alice', abilityId: 'strike' }, allowed: true });
    expect(a.actions.map((x) => x.id)).not.toContain('grantStyle');
    expect(a.actions.map((x) => x.id)).not.toContain('interrupt');
    s.run({ type: strike.command, ...payload(strike, null) }, ann);
    const free = find(a, 'freeAction');
    expect(free).toMatchObject({ command: 'kleptonomicon.freeAction', fixed: { characterId: ALICE }, allowed: true });
    s.run({ type: free.command, ...payload(free, null), description: 'kicks the door shut' }, ann);
    const gm = actions(s, GM, 'kleptonomicon', 'c-alice');
    const grant = find(gm, 'grantStyle');
    expect(grant.choices[0]!.options.map((o) => o.value)).toEqual(['half', 'normal', 'double']);
    s.run({ type: grant.command, ...payload(grant, null) });
    expect(find(actions(s, ann, 'kleptonomicon', 'c-alice'), 'move').choices[0]!.options.map((o) => o.value)).toContain('climb');
    const stop = find(gm, 'interrupt');
    expect(stop).toMatchObject({ label: "Interrupt Alice's movement", allowed: true });
    const tx = s.run({ type: stop.command, ...payload(stop, null) });
    expect(tx.kind).toBe('command');
  });
});

// ---------------------------------------------------------------- Daggerheart (000)

describe('daggerheart.actions (000 and the duality dice)', () => {
  it('the Rogue in the spotlight: the GM\'s request with its odds, an action roll with exact duality odds, Help an Ally for 1 Hope; adversaries get no PC actions', () => {
    const t = new DhTable();
    const seat = t.seat('Ana');
    const rogue = t.pc('Rogue', seat);
    const bard = t.pc('Bard', null);
    t.run({ type: 'encounter.start', combatants: [{ id: rogue, name: 'Rogue', kind: 'pc', characterId: rogue }, { id: bard, name: 'Bard', kind: 'pc', characterId: bard }, { id: 'ogre', name: 'Ogre', kind: 'npc' }] });
    t.run({ type: 'daggerheart.passSpotlight', combatantId: rogue });
    t.run({ type: 'daggerheart.requestRoll', characterId: rogue, trait: 'agility', difficulty: 12 });
    const q = (v: Viewer, id: string) => t.engine.query(t.table, v, 'daggerheart.actions', { combatantId: id });
    const r = q(dhPlayer(seat), rogue);
    expect(r.ok).toBe(true);
    const a = (r as { value: Json }).value as unknown as ActionsAnswer;
    const req = a.actions.find((x) => x.command === 'daggerheart.rollRequest')!;
    expect(req.odds).toMatchObject({ query: 'daggerheart.rollOdds' });
    // The player's own roll asks the GM for the difficulty (ADR 50); the GM's own roll has one, with its odds.
    expect(find(a, 'askRoll')).toMatchObject({ command: 'daggerheart.askRoll', odds: null });
    const gmActions = (q(GM, rogue) as { value: Json }).value as unknown as ActionsAnswer;
    const roll = find(gmActions, 'actionRoll');
    // Modifier 0 against 10: success when Hope + Fear >= 10 or the dice match. Count the 144 pairs.
    let n = 0;
    for (let h = 1; h <= 12; h++) for (let f = 1; f <= 12; f++) if (h === f || h + f >= 10) n++;
    const odds = t.engine.query(t.table, GM, 'daggerheart.actionRollOdds', oddsArgs(roll, payload(roll, null)));
    expect((odds as unknown as { value: { success: number } }).value.success).toBeCloseTo(n / 144, 10);
    expect(find(a, 'helpAlly')).toMatchObject({ cost: '1 Hope', target: { options: [{ value: bard, label: 'Bard' }] } });
    expect(q(GM, 'ogre')).toMatchObject({ ok: true, value: { actions: [] } });
    // Spend Hope from the phone: up to the Hope the Rogue has (2 to start), one by default; it takes the Hope away.
    const spend = find(a, 'spendHope');
    expect(spend).toMatchObject({ command: 'daggerheart.spendHope', fixed: { characterId: rogue }, allowed: true });
    expect(spend.numbers[0]).toMatchObject({ field: 'amount', min: 1, max: 2, value: 1 });
    const before = t.hope(rogue);
    t.run({ type: spend.command, ...payload(spend, null) }, dhPlayer(seat));
    expect(t.hope(rogue)).toBe(before - 1);
  });

  it('Spend Hope on the phone: as much as the Rogue holds, with what it is for; the command it builds takes the Hope, and at 0 Hope it is refused with the reason', () => {
    const t = new DhTable();
    const seat = t.seat('Ana');
    const rogue = t.pc('Rogue', seat);
    t.run({ type: 'encounter.start', combatants: [{ id: rogue, name: 'Rogue', kind: 'pc', characterId: rogue }] });
    t.run({ type: 'daggerheart.gainHope', characterId: rogue, amount: 2 });
    const hope = t.hope(rogue);
    const q = () => (t.engine.query(t.table, dhPlayer(seat), 'daggerheart.actions', { combatantId: rogue }) as unknown as { value: ActionsAnswer }).value;
    const spend = find(q(), 'spendHope');
    expect(spend).toMatchObject({ command: 'daggerheart.spendHope', fixed: { characterId: rogue }, cost: 'Hope, as many as spent', allowed: true });
    expect(spend.numbers[0]).toMatchObject({ field: 'amount', min: 1, max: hope });
    t.run({ type: spend.command, ...payload(spend, null), amount: hope }, dhPlayer(seat));
    expect(t.hope(rogue)).toBe(0);
    expect(find(q(), 'spendHope')).toMatchObject({ allowed: false, reason: 'Rogue has no Hope to spend' });
  });
});
