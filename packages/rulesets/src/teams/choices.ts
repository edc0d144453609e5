// What a creature may answer now (003 "Defensive Actions", "Damage", ADR 42):
// a hit waiting for its reaction (take it, block, parry, dodge) and a
// fortify-or-fall choice, each as a form with its odds; and the odds queries
// those forms and the action table's tests ask (a defence, an ordinary test,
// a killing strike). Answered on the asker's projected world.
import { asJson } from '@tablekeeper/engine/events';
import { FOE_SECRET, getEncounter, ok, own, type Json, type Result, type RuleError, type Viewer, type World } from '@tablekeeper/engine';
import { action, forbid, judge, type ActionOption, type TurnAction } from '../actions.js';
import { blockOutcome, damageTaken, parryBonus, rawDamage } from './attack.js';
import { COMBAT_SKILL, defenceBonus, defenceItems, dodgeable, effectiveEvasion, effectiveReduction, hasReaction, isError } from './combat.js';
import { damageCategory } from './damage.js';
import { attackFrom, creatureKey, testFrom } from './input.js';
import { testChance } from './odds.js';
import { isFoe } from './reducers.js';
import { specFromSheet } from './roll.js';
import { boolSetting, effectiveAdvantage, numSetting, setting } from './settings.js';
import type { Item, Sheet } from './sheet.js';
import { controlsCreature, getTeams, nameOf, type PendingAttack } from './state.js';

const fail = (code: string, message: string, path: string): Result<Json> => ({ ok: false, error: { code, message, path } });
const yes = { allowed: true, reason: null };
const FORBIDDEN = 'only the GM or the player of that character may answer for it';

type TestArg = { readonly attribute: string; readonly skill: string; readonly proficiency?: string | null | undefined; readonly bonus?: number | undefined };

/** The sheet's own attributes and skills (with their dice) and proficiencies as a test's pickers (003: an attribute die plus a skill die, plus a proficiency). */
export function testChoices(sheet: Sheet): TurnAction['choices'] {
  const dice = (m: { readonly [k: string]: number }): ActionOption[] => Object.entries(m).map(([k, v]) => ({ value: k, label: `${k} (d${v})` }));
  const profs = Object.entries(sheet.proficiencies).map(([k, v]) => ({ value: k, label: `${k} (${v < 0 ? '' : '+'}${v})` }));
  return [
    { field: 'test.attribute', label: 'Attribute', options: dice(sheet.attributes) },
    { field: 'test.skill', label: 'Skill', options: dice(sheet.skills) },
    // An empty value sends no proficiency.
    ...(profs.length === 0 ? [] : [{ field: 'test.proficiency', label: 'Proficiency', options: [...profs, { value: '', label: 'none' }] }]),
  ];
}
export const canTest = (sheet: Sheet) => (Object.keys(sheet.attributes).length === 0 || Object.keys(sheet.skills).length === 0 ? forbid(`${sheet.name}'s sheet needs an attribute and a skill for the test`) : yes);

/** 003 "Attacks": an attack test rolls the combat skill's die, so a sheet without one cannot attack (the engine would refuse on Roll). */
export const canFight = (sheet: Sheet) => (own(sheet.skills, COMBAT_SKILL) === undefined ? forbid(`${sheet.name} has no ${COMBAT_SKILL} skill, and an attack rolls it: give ${sheet.name} a ${COMBAT_SKILL} skill die with the Sheet`) : yes);

/** Paying a reaction now: conscious, the reaction unspent (a free one after an intercept), enough stamina or focus. */
export function reactionReady(world: World, id: string, sheet: Sheet, resource: 'stamina' | 'focus', free = false): { allowed: boolean; reason: string | null } {
  if (sheet.dead || !sheet.conscious) return forbid(`${sheet.name} is ${sheet.dead ? 'dead' : 'unconscious'}`);
  if (!free && !hasReaction(world, id)) return forbid(`${sheet.name} has used the reaction this round`);
  const cost = numSetting(world, 'teams.reactionCost');
  const have = resource === 'focus' ? sheet.focus : sheet.stamina;
  return have < cost ? forbid(`needs ${cost} ${resource} (${sheet.name} has ${have})`) : yes;
}

/** The target's choices for one pending hit. */
function hitActions(world: World, id: string, sheet: Sheet, p: PendingAttack): TurnAction[] {
  const ready = reactionReady(world, id, sheet, 'stamina', p.freeReaction);
  const cost = p.freeReaction ? 'a free reaction, 1 stamina' : 'the reaction, 1 stamina';
  const odds = (reaction: string, pass: string[]) => ({ query: 'teams.defendOdds', args: { attackId: p.id, reaction }, pass });
  const fixed = (reaction: string) => ({ attackId: p.id, reaction });
  const items = (use: 'block' | 'parry'): ActionOption[] => defenceItems(sheet, use).map(([k, it]) => ({ value: k, label: `${it.name} (${use} ${use === 'block' ? (it.block ?? 0) : parryBonus(it.parry)}, durability ${it.durability})` }));
  const parry = items('parry');
  const block = items('block');
  return [
    action({ id: 'take', label: 'Take it', cost: 'nothing', command: 'teams.defend', fixed: fixed('none'), odds: odds('none', []) }),
    action({ id: 'parry', label: 'Parry', cost, command: 'teams.defend', fixed: fixed('parry'), choices: [{ field: 'item', label: 'With', options: parry }], odds: odds('parry', ['item']), ...judge(ready, parry.length === 0 ? forbid(`${sheet.name} wields nothing unbroken to parry with`) : yes) }),
    action({ id: 'block', label: 'Block', cost, command: 'teams.defend', fixed: fixed('block'), choices: [{ field: 'item', label: 'With', options: block }], odds: odds('block', ['item']), ...judge(ready, block.length === 0 ? forbid(`${sheet.name} wields nothing with the block property`) : yes) }),
    action({
      id: 'dodge',
      label: 'Dodge',
      cost,
      command: 'teams.defend',
      fixed: fixed('dodge'),
      choices: testChoices(sheet),
      odds: odds('dodge', ['test']),
      ...judge(ready, dodgeable(world, p) ? yes : forbid('a critical hit cannot miss, so it cannot be dodged'), canTest(sheet)),
    }),
  ];
}

/** Fortify to stay conscious, or fall (003 "Damage": missing health past the constitution). */
function atRiskActions(world: World, id: string, sheet: Sheet, difficulty: number): TurnAction[] {
  return [
    action({
      id: 'fortify',
      label: 'Fortify',
      cost: 'the reaction, 1 stamina',
      command: 'teams.stayConscious',
      fixed: { characterId: id, fortify: true },
      choices: testChoices(sheet),
      odds: { query: 'teams.testOdds', args: { characterId: id, difficulty, defence: true }, pass: ['test'] },
      ...judge(reactionReady(world, id, sheet, 'stamina'), canTest(sheet)),
    }),
    action({ id: 'fall', label: 'Fall unconscious', cost: 'nothing', command: 'teams.stayConscious', fixed: { characterId: id, fortify: false } }),
  ];
}

export interface ReactionPrompt {
  readonly id: string;
  readonly kind: 'hit' | 'intercept' | 'atRisk';
  readonly text: string;
  readonly actions: readonly TurnAction[];
}

/** teams.reactions: the prompts waiting on this creature, in the order they came. */
export function reactionsQuery(world: World, args: { readonly characterId: string }, viewer: Viewer): Result<Json> {
  const id = creatureKey(world, args.characterId);
  const sheet = own(getTeams(world).sheets, id);
  if (sheet === undefined) return fail('NOT_FOUND', `no team-game sheet for "${args.characterId.slice(0, 80)}"`, 'characterId');
  if (!controlsCreature(world, viewer, id)) return fail('FORBIDDEN', FORBIDDEN, 'characterId');
  // A sheet the GM keeps secret reaches its player as a name and status words: nothing to pick a test from.
  if (typeof sheet.attributes !== 'object' || sheet.attributes === null) return fail('VALUES_HIDDEN', `the GM keeps ${sheet.name}'s numbers secret`, 'characterId');
  const st = getTeams(world);
  const prompts: ReactionPrompt[] = [];
  const hits = Object.values(st.pending)
    .filter((p) => p.target === id)
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  for (const p of hits) {
    const who = p.attacker === '' ? 'An unseen attacker' : nameOf(world, p.attacker);
    const crit = p.critical ? ' (a critical hit)' : '';
    prompts.push({ id: p.id, kind: 'hit', text: `${who} hit ${sheet.name}${crit}: ${rawDamage(p.result, p.weaponDamage)} ${p.damageType} damage before reduction. Answer before it lands.`, actions: hitActions(world, id, sheet, p) });
  }
  // 003 Reactions table, Intercept: an ally may step in and become the target (then answer as a free reaction).
  const enc = getEncounter(world);
  const me = enc.active ? own(enc.combatants, id) : undefined;
  for (const p of Object.values(st.pending).sort((a, b) => (a.id < b.id ? -1 : 1))) {
    const t = own(enc.combatants, p.target);
    if (me === undefined || t === undefined || p.target === id || p.attacker === id || p.intercepted !== null || t.side !== me.side) continue;
    const att = p.attacker === '' ? undefined : own(st.sheets, p.attacker);
    const evasion = effectiveEvasion(world, id, sheet, typeof att?.size === 'number' ? att.size : sheet.size);
    const stillHits = !boolSetting(world, 'teams.interceptRecheck') || p.critical || p.result >= evasion;
    const who = p.attacker === '' ? 'An unseen attacker' : nameOf(world, p.attacker);
    prompts.push({
      id: `${p.id}:intercept`,
      kind: 'intercept',
      text: `${who} hit ${nameOf(world, p.target)}. ${sheet.name} may step in: the attack's ${p.result} against ${sheet.name}'s evasion ${evasion} ${stillHits ? 'still hits' : 'would miss'}.`,
      actions: [action({ id: 'intercept', label: 'Intercept', cost: 'the reaction, 1 stamina', command: 'teams.intercept', fixed: { attackId: p.id, interceptorId: id }, ...reactionReady(world, id, sheet, 'stamina') })],
    });
  }
  const risk = own(st.atRisk, id);
  if (risk !== undefined) prompts.push({ id: `at-risk-${id}`, kind: 'atRisk', text: `${sheet.name} is losing consciousness: fortify against ${risk.difficulty} or fall unconscious.`, actions: atRiskActions(world, id, sheet, risk.difficulty) });
  return ok(asJson({ characterId: id, name: sheet.name, prompts }));
}

// ---------------------------------------------------------------- odds

/** The chance an ordinary test of `sheet` meets `difficulty` (a defence test adds the guard bonus). */
function testPass(world: World, id: string, sheet: Sheet, test: TestArg, difficulty: number, defence: boolean, advantage = 0): number | RuleError {
  const extra = defence ? defenceBonus(world, id) : 0;
  const spec = specFromSheet(sheet, { ...testFrom(test), bonus: (test.bonus ?? 0) + extra }, effectiveAdvantage(world, advantage));
  if ('code' in spec) return spec;
  return testChance(world, spec, difficulty);
}

/** teams.testOdds: an ordinary test's chance (Short Task, Resuscitate, Fortify, Resist...). */
export function testOddsQuery(world: World, args: { readonly characterId: string; readonly test: TestArg; readonly difficulty: number; readonly defence?: boolean | undefined }, viewer: Viewer): Result<Json> {
  const id = creatureKey(world, args.characterId);
  const sheet = own(getTeams(world).sheets, id);
  if (sheet === undefined) return fail('NOT_FOUND', `no team-game sheet for "${args.characterId.slice(0, 80)}"`, 'characterId');
  if (viewer.role !== 'gm' && (sheet.secret === true || isFoe(world, id))) return fail(FOE_SECRET, `the GM keeps ${sheet.name}'s numbers secret`, 'characterId');
  const pass = testPass(world, id, sheet, args.test, args.difficulty, args.defence === true);
  if (isError(pass)) return { ok: false, error: pass };
  return ok({ pass, difficulty: args.difficulty });
}

/** teams.defendOdds: what each answer to a pending hit leaves (the damage that lands, a dodge's chance). */
export function defendOddsQuery(world: World, args: { readonly attackId: string; readonly reaction?: 'none' | 'block' | 'parry' | 'dodge' | undefined; readonly item?: string | undefined; readonly test?: TestArg | undefined }, viewer: Viewer): Result<Json> {
  const p = own(getTeams(world).pending, args.attackId);
  if (p === undefined) return fail('NO_PENDING_ATTACK', `no attack "${args.attackId.slice(0, 80)}" is waiting for a reaction`, 'attackId');
  const tgt = own(getTeams(world).sheets, p.target);
  if (tgt === undefined) return fail('NOT_FOUND', 'the target has no sheet', 'attackId');
  if (!controlsCreature(world, viewer, p.target)) return fail('FORBIDDEN', FORBIDDEN, 'attackId');
  const att = p.attacker === '' ? undefined : own(getTeams(world).sheets, p.attacker);
  // An attacker whose size the viewer does not know counts as the target's size (no shift).
  const attackerSize = typeof att?.size === 'number' ? att.size : null;
  const category = damageCategory(p.damageType) ?? 'typeless';
  const raw = rawDamage(p.result, p.weaponDamage);
  const reduction = effectiveReduction(world, p.target, tgt, category, attackerSize);
  const reaction = args.reaction ?? 'none';
  const base = { reaction, raw, damageType: p.damageType, avoid: 0, difficulty: null as number | null, item: null as string | null, durability: null as { from: number; to: number } | null };
  const itemOf = (use: 'block' | 'parry'): Item | RuleError => {
    const it = args.item === undefined ? undefined : defenceItems(tgt, use).find(([k]) => k === args.item)?.[1];
    return it ?? { code: 'INVALID_VALUE', message: `item must be one of ${tgt.name}'s wielded items that can ${use}`, path: 'item' };
  };
  switch (reaction) {
    case 'none':
      return ok({ ...base, damage: damageTaken(raw, category, reduction) });
    case 'parry': {
      const it = itemOf('parry');
      if (isError(it)) return { ok: false, error: it };
      const bonus = category === 'physical' ? parryBonus(it.parry) : 0;
      return ok({ ...base, damage: damageTaken(raw, category, reduction + bonus), item: it.name, durability: { from: it.durability, to: it.durability - 1 } });
    }
    case 'block': {
      const it = itemOf('block');
      if (isError(it)) return { ok: false, error: it };
      const b = blockOutcome(raw, it.block ?? 0, it.durability);
      const excess = b.excess > 0 && boolSetting(world, 'teams.blockExcessReduced') ? damageTaken(b.excess, category, reduction) : b.excess;
      return ok({ ...base, damage: excess, item: it.name, durability: { from: it.durability, to: b.durabilityAfter } });
    }
    case 'dodge': {
      if (!dodgeable(world, p)) return fail('CANNOT_DODGE', 'a critical hit cannot miss, so it cannot be dodged', 'reaction');
      if (args.test === undefined) return fail('INVALID_VALUE', 'test must be { attribute, skill }', 'test');
      const fixed = setting(world, 'teams.dodgeDifficulty');
      const difficulty = typeof fixed === 'number' ? fixed : p.result;
      const pass = testPass(world, p.target, tgt, args.test, difficulty, true);
      if (isError(pass)) return { ok: false, error: pass };
      return ok({ ...base, avoid: pass, difficulty, damage: damageTaken(raw, category, reduction) });
    }
  }
}

/** teams.killingStrikeOdds: a test with advantage, the weapon's attribute and combat, against the target's constitution (003 "Death"). */
export function killingStrikeOddsQuery(world: World, args: Parameters<typeof attackFrom>[1], viewer: Viewer): Result<Json> {
  const a = attackFrom(world, args);
  const sheets = getTeams(world).sheets;
  const att = own(sheets, a.attacker);
  const tgt = own(sheets, a.target);
  if (att === undefined) return fail('NOT_FOUND', `no team-game sheet for "${args.attackerId.slice(0, 80)}"`, 'attackerId');
  if (tgt === undefined) return fail('NOT_FOUND', `no team-game sheet for "${args.targetId.slice(0, 80)}"`, 'targetId');
  // The constitution is not among a foe's revealed defences (ADR 33): a player gets no number to reckon with.
  if (viewer.role !== 'gm' && (tgt.secret === true || isFoe(world, a.target))) return fail(FOE_SECRET, `the GM keeps ${tgt.name}'s constitution secret`, 'targetId');
  const item = own(att.items, a.weapon);
  if (item === undefined || item.weapon === null) return fail('NOT_A_WEAPON', `${att.name} has no weapon "${a.weapon.slice(0, 40)}"`, 'weapon');
  const attribute = (a.attribute ?? item.weapon.attributes[0]!).toLowerCase();
  const pass = testPass(world, a.attacker, att, { attribute, skill: COMBAT_SKILL }, tgt.constitution, false, 1);
  if (isError(pass)) return { ok: false, error: pass };
  return ok({ kill: pass, difficulty: tgt.constitution, weapon: item.name, attribute });
}
