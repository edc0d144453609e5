// 003 "Attacks", "Defensive Actions", "Damage", "Death": the decide-side
// logic. Every die is rolled here and recorded in the events.
import type { Json, RuleError, World } from '@tablekeeper/engine';
import { economyOf, economyRemaining, getEncounter, own } from '@tablekeeper/engine';
import { attackOutcome, blockOutcome, damageTaken, misdirects, multipleAttackPenalty, parryBonus, rawDamage, sizeShift } from './attack.js';
import { consciousnessDifficulty, damageCategory, splitDamage, type DamageCategory } from './damage.js';
import { asJson, Draft } from './draft.js';
import { rollJson, rollLuck, rollTest, specFromSheet, type TestInput, type TestRoll, type TestSpec } from './roll.js';
import { kit, teamsRules } from './rules.js';
import { boolSetting, effectiveAdvantage, numSetting, setting } from './settings.js';
import type { Item, Sheet, Weapon } from './sheet.js';
import { getTeams, type PendingAttack } from './state.js';

export const COMBAT_SKILL = 'combat';

const e = (code: string, message: string, path?: string): RuleError => (path === undefined ? { code, message } : { code, message, path });

export function sheetOf(world: World, id: string, path: string): Sheet | RuleError {
  const s = own(getTeams(world).sheets, id);
  if (s !== undefined) return s;
  // A foe added without an Evasion (review 10: "Wolf x2" from the builder) is named, with what it lacks and where to give it.
  const c = own(getEncounter(world).combatants, id);
  if (c !== undefined) return e('NOT_FOUND', `${c.name} has no sheet yet, so no Evasion to roll against or weapon to attack with: give it them with its Sheet on the encounter`, path);
  return e('NOT_FOUND', `no team-game sheet for "${id}" (set one with character.sheet.set)`, path);
}

/** Our helpers return a value or a RuleError; only errors carry a code. */
export const isError = (x: unknown): x is RuleError => x !== null && typeof x === 'object' && 'code' in x && 'message' in x;

function inEncounter(world: World, id: string): boolean {
  const enc = getEncounter(world);
  return enc.active && own(enc.combatants, id) !== undefined;
}

/** Guard's +1 (and any other 'defence' effect) for defences and defence tests. */
export function defenceBonus(world: World, id: string): number {
  return inEncounter(world, id) ? kit.netEffect(world, id, 'defence') : 0;
}

/** Reaction available: outside an encounter always; inside, the reaction pool (plus Wait's extra). */
export function hasReaction(world: World, id: string): boolean {
  if (!inEncounter(world, id)) return true;
  return economyRemaining(teamsRules.economy, economyOf(world, id), 'reaction') > 0;
}

/** Spend a reaction (unless it is free) and its stamina or focus. */
export function payReaction(d: Draft, id: string, resource: 'stamina' | 'focus', label: string, free: boolean): RuleError | null {
  const sh = own(getTeams(d.world).sheets, id);
  if (sh === undefined) return e('NOT_FOUND', `no sheet for "${id}"`);
  if (!sh.conscious || sh.dead) return e('UNABLE', `${sh.name} cannot react while ${sh.dead ? 'dead' : 'unconscious'}`);
  const cost = numSetting(d.world, 'teams.reactionCost');
  const have = resource === 'focus' ? sh.focus : sh.stamina;
  if (have < cost) return e(resource === 'focus' ? 'NO_FOCUS' : 'NO_STAMINA', `${sh.name} needs ${cost} ${resource} to ${label} (has ${have})`, resource);
  if (!free && inEncounter(d.world, id)) {
    const spent = kit.spend(d.world, id, { kind: 'reaction' });
    if (!spent.ok) return spent.error;
    d.emit(spent.value);
  }
  if (cost > 0) d.emit({ type: 'teams.resourceSpent', id, resource, n: cost, from: have, to: have - cost, for: label });
  return null;
}

export function readTest(j: Json | undefined, path: string): TestInput | RuleError {
  if (j === null || typeof j !== 'object' || Array.isArray(j)) return e('INVALID_VALUE', `${path} must be { attribute, skill, proficiency?, bonus? }`, path);
  const a = j['attribute'];
  const s = j['skill'];
  const p = j['proficiency'];
  const b = j['bonus'];
  if (typeof a !== 'string' || a.length === 0 || a.length > 40) return e('INVALID_VALUE', `${path}.attribute must name an attribute`, `${path}.attribute`);
  if (typeof s !== 'string' || s.length === 0 || s.length > 40) return e('INVALID_VALUE', `${path}.skill must name a skill`, `${path}.skill`);
  if (p !== undefined && p !== null && (typeof p !== 'string' || p.length > 40)) return e('INVALID_VALUE', `${path}.proficiency must name a proficiency`, `${path}.proficiency`);
  if (b !== undefined && (typeof b !== 'number' || !Number.isInteger(b) || Math.abs(b) > 100)) return e('INVALID_VALUE', `${path}.bonus must be an integer within ±100`, `${path}.bonus`);
  return { attribute: a, skill: s, ...(typeof p === 'string' ? { proficiency: p } : {}), ...(typeof b === 'number' ? { bonus: b } : {}) };
}

/** An ordinary test (luck 20+ adds +4) for `id`, with the defence bonus when it is a defence test. */
export function ordinaryTest(d: Draft, sheet: Sheet, input: TestInput, advantage: number, extraBonus: number): TestRoll | RuleError {
  const spec = specFromSheet(sheet, { ...input, bonus: (input.bonus ?? 0) + extraBonus }, effectiveAdvantage(d.world, advantage));
  if ('code' in spec) return spec;
  return rollTest(d.rng, spec, { at: numSetting(d.world, 'teams.luckBonusAt'), bonus: numSetting(d.world, 'teams.luckBonus') });
}

// ---------------------------------------------------------------- damage, consciousness, death

/** The reduction a target applies to damage of a category from this attacker (size and guard included). */
export function effectiveReduction(world: World, target: string, sheet: Sheet, category: DamageCategory, attackerSize: number | null): number {
  if (category === 'typeless') return 0;
  const shift = attackerSize === null ? 0 : sizeShift(attackerSize, sheet.size).deflection;
  return Math.max(0, sheet.deflection[category] + defenceBonus(world, target) + shift);
}

export function effectiveEvasion(world: World, target: string, sheet: Sheet, attackerSize: number): number {
  return sheet.evasion + defenceBonus(world, target) + sizeShift(attackerSize, sheet.size).evasion;
}

/**
 * Damage already reduced lands: endurance, then health; zero health means
 * unconscious, and damage past the remaining health risks death (a luck test)
 * unless it is the first nonlethal blow; losing health while missing more
 * than the constitution calls for a fortify or unconsciousness.
 */
export function dealDamage(d: Draft, id: string, amount: number, damageType: string | null, nonlethal: boolean, source: string | null, raw?: number): void {
  const sh = own(getTeams(d.world).sheets, id);
  if (sh === undefined || amount <= 0) return;
  const split = splitDamage({ endurance: sh.endurance, health: sh.health }, amount);
  d.emit({
    type: 'teams.damaged',
    id,
    amount,
    damageType,
    // What deflection lessened (the GM's damage box, ADR 56), where it did.
    ...(raw !== undefined && raw !== amount ? { raw } : {}),
    nonlethal,
    source,
    endurance: { from: sh.endurance, to: split.endurance },
    health: { from: sh.health, to: split.health },
  });
  if (sh.dead) return;
  // Only damage that reached health counts here (endurance soaking a blow at zero health changes nothing).
  if (split.health === 0 && (split.toHealth > 0 || split.overflow > 0)) {
    if (sh.conscious) {
      d.emit({ type: 'teams.fellUnconscious', id, reason: 'no health left' });
      d.incapacitate(id, true);
    }
    // Damage beyond the remaining health risks death; a nonlethal blow that only now reaches zero does not.
    if (split.overflow > 0 && !(nonlethal && sh.health > 0)) {
      const luck = rollLuck(d.rng, sh.luck, sh.deathDifficulty);
      const survived = luck.success;
      d.emit({
        type: 'teams.deathRisked',
        id,
        die: luck.die,
        total: luck.total,
        difficulty: sh.deathDifficulty,
        survived,
        newDifficulty: survived ? sh.deathDifficulty + numSetting(d.world, 'teams.cheatDeathStep') : sh.deathDifficulty,
      });
    }
    return;
  }
  if (split.toHealth > 0 && sh.conscious) {
    const difficulty = consciousnessDifficulty(split.health, sh.maxHealth, sh.constitution);
    if (difficulty === null) return;
    const canFortify = hasReaction(d.world, id) && sh.stamina >= numSetting(d.world, 'teams.reactionCost');
    if (canFortify) d.emit({ type: 'teams.consciousnessAtRisk', id, difficulty });
    else {
      d.emit({ type: 'teams.fellUnconscious', id, reason: 'could not fortify to stay conscious' });
      d.incapacitate(id, true);
    }
  }
}

// ---------------------------------------------------------------- attacks

export interface AttackInput {
  readonly attacker: string;
  readonly target: string;
  readonly weapon: string;
  readonly attribute?: string;
  readonly proficiency?: string | null;
  readonly sneak: boolean;
  readonly flank: boolean;
  /** Characters within 1 m of the target (for a misdirected thrown or projectile attack). */
  readonly nearby: readonly string[];
  readonly bonus: number;
  /** Wait for the target's reaction even when it seems unable (GM's choice). */
  readonly await: boolean;
}

export const MAX_NEARBY = 12;

function weaponOf(sheet: Sheet, itemId: string): { item: Item; weapon: Weapon } | RuleError {
  const item = sheet.items[itemId];
  if (item === undefined) return e('UNKNOWN_ITEM', `${sheet.name} has no item "${itemId}"`, 'weapon');
  if (item.weapon === null) return e('NOT_A_WEAPON', `${item.name} has no weapon profile`, 'weapon');
  return { item, weapon: item.weapon };
}

export interface PreparedAttack {
  readonly attacker: Sheet;
  readonly item: Item;
  readonly weapon: Weapon;
  readonly attribute: string;
  readonly proficiency: string | null;
  readonly earlier: number;
  readonly penalty: number;
  readonly advantage: number;
  readonly ranged: boolean;
  readonly spec: TestSpec;
  readonly criticalThreshold: number;
}

/** Everything about an attack that is known before rolling (shared by the attack and its odds). */
export function prepareAttack(world: World, a: AttackInput, extraAdvantage = 0): PreparedAttack | RuleError {
  const att = sheetOf(world, a.attacker, 'attackerId');
  if (isError(att)) return att;
  const tgt0 = sheetOf(world, a.target, 'targetId');
  if (isError(tgt0)) return tgt0;
  if (!att.conscious || att.dead) return e('UNABLE', `${att.name} cannot attack while ${att.dead ? 'dead' : 'unconscious'}`, 'attackerId');
  if (a.attacker === a.target) return e('BAD_TARGET', 'an attacker cannot target themself', 'targetId');
  const w = weaponOf(att, a.weapon);
  if (isError(w)) return w;
  const attribute = (a.attribute ?? w.weapon.attributes[0]!).toLowerCase();
  if (!w.weapon.attributes.includes(attribute)) return e('BAD_ATTRIBUTE', `${w.item.name} uses ${w.weapon.attributes.join(' or ')}, not ${attribute}`, 'attribute');
  // Proficiency: the one named (it must be the weapon's), else the best the attacker has among the weapon's.
  let proficiency: string | null = null;
  if (a.proficiency !== undefined && a.proficiency !== null) {
    const p = a.proficiency.toLowerCase();
    if (!w.weapon.proficiencies.includes(p)) return e('BAD_PROFICIENCY', `${w.item.name} takes ${w.weapon.proficiencies.join(' or ') || 'no proficiency'}, not ${p}`, 'proficiency');
    proficiency = att.proficiencies[p] === undefined ? null : p;
  } else {
    for (const p of w.weapon.proficiencies) if (att.proficiencies[p] !== undefined && (proficiency === null || att.proficiencies[p]! > att.proficiencies[proficiency]!)) proficiency = p;
  }
  for (const id of a.nearby) {
    if (id === a.attacker || id === a.target) return e('INVALID_VALUE', 'nearby lists the other characters within 1 m of the target (not the attacker or the target)', 'nearby');
    if (own(getTeams(world).sheets, id) === undefined) return e('NOT_FOUND', `no sheet for nearby "${id}"`, 'nearby');
  }
  const enc = getEncounter(world);
  // The multiple attack penalty counts attacks in this round of this fight: round 1 of the next fight starts again at none.
  const prev = getTeams(world).attackCounts[a.attacker];
  const earlier = enc.active && prev !== undefined && prev.round === enc.round && (prev.encounter ?? 0) === (enc.number ?? 0) ? prev.count : 0;
  const penalty = multipleAttackPenalty(earlier, numSetting(world, 'teams.multipleAttackPenalty'));
  const ranged = w.weapon.delivery !== 'melee';
  const condAdv = inEncounter(world, a.attacker) ? kit.netEffect(world, a.attacker, 'attack.advantage') : 0;
  const targetAdv = inEncounter(world, a.target) ? kit.netEffect(world, a.target, `against.${ranged ? 'rangedAttack' : 'meleeAttack'}.advantage`) : 0;
  const advantage = (a.sneak ? 1 : 0) + (a.flank ? 1 : 0) + extraAdvantage + condAdv + targetAdv;
  const spec = specFromSheet(att, { attribute, skill: COMBAT_SKILL, proficiency, bonus: a.bonus + penalty }, effectiveAdvantage(world, advantage));
  if ('code' in spec) return spec;
  const criticalThreshold = w.weapon.criticalThreshold ?? numSetting(world, 'teams.criticalThreshold');
  return { attacker: att, item: w.item, weapon: w.weapon, attribute, proficiency, earlier, penalty, advantage, ranged, spec, criticalThreshold };
}

/** The attack itself, after the action is paid: roll, misdirection, hit or miss, then the pending hit or its damage. */
export function makeAttack(d: Draft, a: AttackInput, extraAdvantage = 0): RuleError | null {
  const world = d.world;
  const prep = prepareAttack(world, a, extraAdvantage);
  if (isError(prep)) return prep;
  const { attacker: att, weapon, attribute, proficiency, earlier, penalty, advantage, ranged, spec } = prep;
  const w = { weapon };
  const enc = getEncounter(world);
  const roll = rollTest(d.rng, spec, null);
  // Thrown or projectile, luck 1 or less, others within 1 m: one of them at random becomes the target.
  let target = a.target;
  let misdirect: Json = null;
  if (misdirects(w.weapon.delivery, roll.luck, numSetting(world, 'teams.misdirectAtOrBelow'), a.nearby.length)) {
    const die = d.rng.die(a.nearby.length);
    target = a.nearby[die - 1]!;
    misdirect = { among: [...a.nearby], die };
  }
  const tgt = own(getTeams(world).sheets, target)!;
  const evasion = effectiveEvasion(world, target, tgt, att.size);
  const threshold = prep.criticalThreshold;
  const result = roll.total;
  const out = attackOutcome({ result, luck: roll.luck, evasion, criticalThreshold: threshold });
  const id = d.mint('attack');
  d.emit({
    type: 'teams.attacked',
    id,
    attacker: a.attacker,
    intended: a.target,
    target,
    weapon: a.weapon,
    attribute,
    proficiency,
    advantage,
    roll: rollJson(roll),
    earlier,
    penalty,
    result,
    evasion,
    criticalThreshold: threshold,
    critical: out.critical,
    hit: out.hit,
    misdirect,
    round: enc.round,
    ...(enc.number !== undefined ? { encounter: enc.number } : {}),
  });
  if (!out.hit) return null;
  const pending: PendingAttack = {
    id,
    attacker: a.attacker,
    target,
    weapon: a.weapon,
    result,
    luck: roll.luck,
    critical: out.critical,
    weaponDamage: out.critical ? w.weapon.criticalDamage : w.weapon.damage,
    damageType: w.weapon.damageType,
    nonlethal: w.weapon.nonlethal,
    ranged,
    freeReaction: false,
    intercepted: null,
  };
  // Reactions are taken within a round (003 "Actions in Combat"): outside a running encounter no one waits for one,
  // since no turn would ever end to land the hit; it lands at once.
  if (!inEncounter(d.world, target)) {
    if (a.await) return e('NO_ENCOUNTER', 'a hit waits for a reaction only in a running encounter (reactions come with its turns); attack without await, or start an encounter', 'await');
    return resolveHit(d, pending, { kind: 'none' });
  }
  // The hit waits only when one of the target's own reactions could answer it (ADR 42): else nobody would be asked anything.
  const canReact = tgt.conscious && !tgt.dead && hasReaction(d.world, target) && tgt.stamina >= numSetting(d.world, 'teams.reactionCost') && canAnswer(d.world, tgt, out);
  if (canReact || a.await) d.emit({ type: 'teams.hitPending', attacker: a.attacker, target, attack: asJson(pending) });
  else resolveHit(d, pending, { kind: 'none' });
  return null;
}

/** Wielded, unbroken items that can parry (any of them: no parry value adds 1) or block (the block property). */
export function defenceItems(sheet: Sheet, use: 'block' | 'parry'): [string, Item][] {
  return sheet.wielded.flatMap((id): [string, Item][] => {
    const it = own(sheet.items, id);
    return it === undefined || it.durability <= 0 || (use === 'block' && it.block === null) ? [] : [[id, it]];
  });
}

/** Whether a dodge may answer this hit: a critical cannot miss unless the table says otherwise. */
export const dodgeable = (world: World, p: Pick<PendingAttack, 'critical'>): boolean => !p.critical || boolSetting(world, 'teams.criticalsDodgeable');

/** Some reaction of the target's own can answer this hit (so the attack waits for it): a dodge, or a wielded item to parry with. */
export function canAnswer(world: World, sheet: Sheet, p: Pick<PendingAttack, 'critical'>): boolean {
  return dodgeable(world, p) || defenceItems(sheet, 'parry').length > 0;
}

export type Defence =
  | { readonly kind: 'none' }
  | { readonly kind: 'block'; readonly item: string }
  | { readonly kind: 'parry'; readonly item: string }
  | { readonly kind: 'dodge'; readonly test: TestInput };

function usableItem(sheet: Sheet, itemId: string, use: 'block' | 'parry'): Item | RuleError {
  const item = sheet.items[itemId];
  if (item === undefined) return e('UNKNOWN_ITEM', `${sheet.name} has no item "${itemId}"`, 'item');
  if (!sheet.wielded.includes(itemId)) return e('NOT_WIELDED', `${sheet.name} must wield ${item.name} to ${use} with it (Brandish)`, 'item');
  if (item.durability <= 0) return e('BROKEN', `${item.name} is broken and cannot ${use}`, 'item');
  if (use === 'block' && item.block === null) return e('CANNOT_BLOCK', `${item.name} has no block property`, 'item');
  return item;
}

/** The target's answer to a pending hit; then the damage lands. */
export function resolveHit(d: Draft, p: PendingAttack, defence: Defence): RuleError | null {
  const world = d.world;
  const tgt = own(getTeams(world).sheets, p.target);
  const att = own(getTeams(world).sheets, p.attacker);
  if (tgt === undefined) return e('NOT_FOUND', `no sheet for "${p.target}"`);
  const category = damageCategory(p.damageType) ?? 'typeless';
  const raw = rawDamage(p.result, p.weaponDamage);
  const attackerSize = att?.size ?? null;
  const base = { type: 'teams.hitResolved', attack: p.id, attacker: p.attacker, target: p.target, reaction: defence.kind, raw, damageType: p.damageType };
  switch (defence.kind) {
    case 'none': {
      const dmg = damageTaken(raw, category, effectiveReduction(world, p.target, tgt, category, attackerSize));
      // The size difference's part of the reduction, for the line's why (003 "Size"; review 12 #15: "11 of 12" unexplained).
      const shift = category === 'typeless' || attackerSize === null ? 0 : sizeShift(attackerSize, tgt.size).deflection;
      d.emit({ ...base, avoided: false, damage: dmg, ...(shift !== 0 ? { sizeShift: shift } : {}) });
      dealDamage(d, p.target, dmg, p.damageType, p.nonlethal, p.attacker);
      return null;
    }
    case 'parry': {
      const item = usableItem(tgt, defence.item, 'parry');
      if (isError(item)) return item;
      const paid = payReaction(d, p.target, 'stamina', 'parry', p.freeReaction);
      if (paid !== null) return paid;
      // The parry value adds to physical defence only.
      const bonus = category === 'physical' ? parryBonus(item.parry) : 0;
      const dmg = damageTaken(raw, category, effectiveReduction(world, p.target, tgt, category, attackerSize) + bonus);
      d.emit({ type: 'teams.itemDamaged', id: p.target, item: defence.item, from: item.durability, to: item.durability - 1, by: 'parry' });
      d.emit({ ...base, avoided: false, damage: dmg, item: defence.item, parryBonus: bonus });
      dealDamage(d, p.target, dmg, p.damageType, p.nonlethal, p.attacker);
      return null;
    }
    case 'block': {
      const item = usableItem(tgt, defence.item, 'block');
      if (isError(item)) return item;
      const paid = payReaction(d, p.target, 'stamina', 'block', p.freeReaction);
      if (paid !== null) return paid;
      const b = blockOutcome(raw, item.block ?? 0, item.durability);
      d.emit({ type: 'teams.itemDamaged', id: p.target, item: defence.item, from: item.durability, to: b.durabilityAfter, by: 'block' });
      const excess = b.excess > 0 && boolSetting(d.world, 'teams.blockExcessReduced') ? damageTaken(b.excess, category, effectiveReduction(d.world, p.target, tgt, category, attackerSize)) : b.excess;
      d.emit({ ...base, avoided: false, damage: excess, item: defence.item, toItem: b.toItem });
      if (excess > 0) dealDamage(d, p.target, excess, p.damageType, p.nonlethal, p.attacker);
      return null;
    }
    case 'dodge': {
      if (p.critical && !boolSetting(world, 'teams.criticalsDodgeable')) return e('CANNOT_DODGE', 'a critical hit cannot miss, so it cannot be dodged (setting teams.criticalsDodgeable)', 'reaction');
      const paid = payReaction(d, p.target, 'stamina', 'dodge', p.freeReaction);
      if (paid !== null) return paid;
      const roll = ordinaryTest(d, tgt, defence.test, 0, defenceBonus(d.world, p.target));
      if (isError(roll)) return roll;
      const fixed = setting(d.world, 'teams.dodgeDifficulty');
      const difficulty = typeof fixed === 'number' ? fixed : p.result;
      const success = roll.total >= difficulty;
      d.emit({ type: 'teams.dodgeRolled', id: p.target, attack: p.id, roll: rollJson(roll), difficulty, success });
      if (success) {
        d.emit({ ...base, avoided: true, damage: 0 });
        return null;
      }
      const dmg = damageTaken(raw, category, effectiveReduction(d.world, p.target, tgt, category, attackerSize));
      d.emit({ ...base, avoided: false, damage: dmg });
      dealDamage(d, p.target, dmg, p.damageType, p.nonlethal, p.attacker);
      return null;
    }
  }
}

/** Intercept: an ally takes the target's place (the same roll against the interceptor's evasion, by default). */
export function intercept(d: Draft, p: PendingAttack, by: string): RuleError | null {
  if (by === p.target) return e('INVALID_VALUE', 'the target cannot intercept its own attacker', 'by');
  if (by === p.attacker) return e('INVALID_VALUE', 'the attacker cannot intercept', 'by');
  const sh = sheetOf(d.world, by, 'by');
  if (isError(sh)) return sh;
  // Only an ally steps in (same team, when both are in the encounter).
  const enc = getEncounter(d.world);
  const a = own(enc.combatants, by);
  const b = own(enc.combatants, p.target);
  if (enc.active && a !== undefined && b !== undefined && a.side !== b.side) return e('NOT_AN_ALLY', `${sh.name} is not on ${b.name}'s team`, 'by');
  const paid = payReaction(d, by, 'stamina', 'intercept', false);
  if (paid !== null) return paid;
  const att = own(getTeams(d.world).sheets, p.attacker);
  const evasion = effectiveEvasion(d.world, by, sh, att?.size ?? sh.size);
  const stillHits = !boolSetting(d.world, 'teams.interceptRecheck') || p.critical || p.result >= evasion;
  d.emit({ type: 'teams.intercepted', attack: p.id, by, from: p.target, result: p.result, evasion, stillHits });
  return null;
}
