// 002 "Ability Entries": an ability's header as data (type, frequency,
// action, provokes, sustain, power cost, escalation requirement, other tags)
// and the rules that follow from it: when it may be used, when it comes back
// (encounter at any rest, daily at a full rest, recharge X+ rolled at a quick
// rest), and what using it costs.
import type { Json } from '@tablekeeper/engine';
import { escalationParity } from '@tablekeeper/engine';
import { isDefense, type Defense } from './attack.js';
import { isDamageType, parseDice, type DamageDice, type DamageType } from './damage.js';
import { errR, okR, type R } from './result.js';

export const ACTIONS = ['standard', 'move', 'quick', 'free', 'interrupt'] as const;
export type ActionKind = (typeof ACTIONS)[number];
export const RECHARGE_TARGETS = [9, 11, 13] as const;

export type Frequency = { readonly kind: 'at-will' } | { readonly kind: 'encounter' } | { readonly kind: 'daily' } | { readonly kind: 'recharge'; readonly target: number };

/** Who an attack ability may target: engaged only, nearby (engaged too), anyone, or the stance's own reach. */
export const ATTACK_REACHES = ['engaged', 'nearby', 'far', 'stance'] as const;
export type AttackReach = (typeof ATTACK_REACHES)[number];
export const MISS_KINDS = ['none', 'level', 'dice'] as const;
export const MAX_ABILITY_TARGETS = 20;
const MAX_ATTACK_BONUS = 50;

/**
 * 002 "Attacks": the attack an ability makes, as its entry gives it: the
 * defense it goes against, a rare extra bonus, whom it reaches and how many,
 * its Hit and Miss damage ("as a Basic Melee/Ranged Attack" = the basic
 * attack's dice), its damage types, and whether every roll comes before any damage.
 */
export interface AbilityAttack {
  readonly defense: Defense;
  readonly bonus: number;
  readonly reach: AttackReach;
  readonly targets: number;
  /** Hit and Miss as the basic attack of the ability's stance (melee unless it is Ranged). */
  readonly asBasic: boolean;
  /** Hit damage (ignored when `asBasic`); null: the hit deals no damage. */
  readonly hit: DamageDice | null;
  /** Miss: nothing, damage equal to Level, or `missDice` (ignored when `asBasic`). */
  readonly miss: (typeof MISS_KINDS)[number];
  readonly missDice: DamageDice | null;
  readonly types: readonly DamageType[];
  readonly rollAllFirst: boolean;
  /**
   * A stat block's attack ("+7 vs AC"): `bonus` is the whole modifier, standing
   * for Level + Volition (002 "Attacks" gives a monster's total); the escalation
   * die is added only as the sheet's usesEscalation says. Absent on older entries.
   */
  readonly wholeBonus?: boolean;
}

export interface AbilityEntry {
  readonly id: string;
  readonly name: string;
  /** Melee, Ranged, Spell or a class's own type; may be empty. */
  readonly types: readonly string[];
  readonly frequency: Frequency;
  readonly action: ActionKind;
  readonly provokes: boolean;
  /** Sustain X: a 3d6 roll of X+ with the same action keeps it going. */
  readonly sustain: number | null;
  /** Spend X Power (of `resource`: 'power' or a secondary like Momentum). */
  readonly power: { readonly amount: number; readonly resource: string } | null;
  /** Escalation X+ (with optional even/odd key); `special` = usable below, with a caveat. */
  readonly escalation: { readonly min: number; readonly parity: 'even' | 'odd' | null; readonly special: boolean } | null;
  /** A basic attack (the only attacks a Hampered character may use). */
  readonly basic: boolean;
  readonly other: readonly string[];
  /** The attack it makes, if it is an attack (entries stored before attacks were declared have none). */
  readonly attack?: AbilityAttack;
}

export interface AbilityUse {
  /** Expended and not yet replenished. */
  readonly expended: boolean;
  /** Turn serial of the last time it was started or sustained (sustained abilities only). */
  readonly activeTurn: number | null;
}

export const MAX_ABILITIES = 60;
const MAX_TAG = 40;

function tagList(j: Json | undefined, path: string): R<string[]> {
  if (j === undefined || j === null) return okR([]);
  if (!Array.isArray(j) || j.length > 10 || !j.every((t) => typeof t === 'string' && t.length > 0 && t.length <= MAX_TAG)) return errR('INVALID_VALUE', `${path} must be a list of at most 10 short strings`, path);
  return okR(j as string[]);
}

/** The frequencies as a form offers them (a recharge as "recharge 11+"). */
export const FREQUENCY_NAMES = ['at-will', 'encounter', 'daily', ...RECHARGE_TARGETS.map((t) => `recharge ${t}+` as const)] as const;

export function parseFrequency(j: Json | undefined, path: string): R<Frequency> {
  if (j === 'at-will' || j === 'encounter' || j === 'daily') return okR({ kind: j });
  const named = typeof j === 'string' ? /^recharge (\d+)\+$/.exec(j) : null;
  if (named !== null && (RECHARGE_TARGETS as readonly number[]).includes(Number(named[1]))) return okR({ kind: 'recharge', target: Number(named[1]) });
  if (j !== null && typeof j === 'object' && !Array.isArray(j) && j['kind'] === 'recharge') {
    const t = j['target'];
    if (typeof t !== 'number' || !(RECHARGE_TARGETS as readonly number[]).includes(t)) return errR('INVALID_VALUE', `${path}.target must be one of ${RECHARGE_TARGETS.join(', ')}`, `${path}.target`);
    return okR({ kind: 'recharge', target: t });
  }
  return errR('INVALID_VALUE', `${path} must be one of ${FREQUENCY_NAMES.join(', ')} (or { kind: "recharge", target: 9 | 11 | 13 })`, path);
}

function diceOrNull(j: Json | undefined, path: string): R<DamageDice | null> {
  return j === undefined || j === null ? okR(null) : parseDice(j, path);
}

export function parseAttack(j: Json | undefined, path: string): R<AbilityAttack | null> {
  if (j === undefined || j === null) return okR(null);
  if (typeof j !== 'object' || Array.isArray(j)) return errR('INVALID_VALUE', `${path} must be an object`, path);
  const defense = j['defense'] ?? 'ac';
  if (!isDefense(defense)) return errR('INVALID_VALUE', `${path}.defense must be "ac", "pd" or "md"`, `${path}.defense`);
  const bonus = j['bonus'] ?? 0;
  if (typeof bonus !== 'number' || !Number.isInteger(bonus) || Math.abs(bonus) > MAX_ATTACK_BONUS) return errR('INVALID_VALUE', `${path}.bonus must be a whole number from -${MAX_ATTACK_BONUS} to ${MAX_ATTACK_BONUS}`, `${path}.bonus`);
  const reach = j['reach'] ?? 'stance';
  if (typeof reach !== 'string' || !(ATTACK_REACHES as readonly string[]).includes(reach)) return errR('INVALID_VALUE', `${path}.reach must be one of ${ATTACK_REACHES.join(', ')}`, `${path}.reach`);
  const targets = j['targets'] ?? 1;
  if (typeof targets !== 'number' || !Number.isInteger(targets) || targets < 1 || targets > MAX_ABILITY_TARGETS) return errR('INVALID_VALUE', `${path}.targets must be a whole number from 1 to ${MAX_ABILITY_TARGETS}`, `${path}.targets`);
  const hit = diceOrNull(j['hit'], `${path}.hit`);
  if (!hit.ok) return hit;
  const miss = j['miss'] ?? 'none';
  if (typeof miss !== 'string' || !(MISS_KINDS as readonly string[]).includes(miss)) return errR('INVALID_VALUE', `${path}.miss must be one of ${MISS_KINDS.join(', ')}`, `${path}.miss`);
  const missDice = diceOrNull(j['missDice'], `${path}.missDice`);
  if (!missDice.ok) return missDice;
  if (miss === 'dice' && missDice.value === null) return errR('INVALID_VALUE', `${path}.missDice is needed when miss is "dice"`, `${path}.missDice`);
  const tj = j['types'] ?? ['weapon'];
  if (!Array.isArray(tj) || tj.length === 0 || tj.length > 10 || !tj.every(isDamageType)) return errR('INVALID_VALUE', `${path}.types must be a list of 1-10 damage types`, `${path}.types`);
  return okR({
    defense,
    bonus,
    reach: reach as AttackReach,
    targets,
    asBasic: j['asBasic'] === true,
    hit: hit.value,
    miss: miss as AbilityAttack['miss'],
    missDice: missDice.value,
    types: [...new Set(tj as DamageType[])],
    rollAllFirst: j['rollAllFirst'] === true,
    ...(j['wholeBonus'] === true ? { wholeBonus: true } : {}),
  });
}

/** An ability's key made from its name ("Frost Bolt" -> "frost-bolt"), for a sheet entered without one. */
export function abilityKeyOf(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_TAG);
}

export function parseAbility(j: Json | undefined, path: string): R<AbilityEntry> {
  if (j === null || typeof j !== 'object' || Array.isArray(j)) return errR('INVALID_VALUE', `${path} must be an object`, path);
  if (j['id'] === undefined && (typeof j['name'] !== 'string' || abilityKeyOf(j['name']) === '')) return errR('INVALID_VALUE', `${path}.name is required: give the ability a name`, `${path}.name`);
  const id = j['id'] ?? abilityKeyOf(j['name'] as string);
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_TAG) return errR('INVALID_VALUE', `${path}.id must be a string of 1-${MAX_TAG} characters`, `${path}.id`);
  const name = j['name'] ?? id;
  if (typeof name !== 'string' || name.length > 80) return errR('INVALID_VALUE', `${path}.name must be a string of at most 80 characters`, `${path}.name`);
  const types = tagList(j['types'], `${path}.types`);
  if (!types.ok) return types;
  const freq = parseFrequency(j['frequency'] ?? 'at-will', `${path}.frequency`);
  if (!freq.ok) return freq;
  const action = j['action'] ?? 'standard';
  if (typeof action !== 'string' || !(ACTIONS as readonly string[]).includes(action)) return errR('INVALID_VALUE', `${path}.action must be one of ${ACTIONS.join(', ')}`, `${path}.action`);
  const sustain = j['sustain'] ?? null;
  if (sustain !== null && (typeof sustain !== 'number' || !Number.isInteger(sustain) || sustain < 3 || sustain > 18)) return errR('INVALID_VALUE', `${path}.sustain must be a whole number from 3 to 18`, `${path}.sustain`);
  let power: AbilityEntry['power'] = null;
  const pj = j['power'];
  if (pj !== undefined && pj !== null) {
    const amount = typeof pj === 'number' ? pj : typeof pj === 'object' && !Array.isArray(pj) ? pj['amount'] : undefined;
    const resource = typeof pj === 'object' && pj !== null && !Array.isArray(pj) ? (pj['resource'] ?? 'power') : 'power';
    if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 1 || amount > 99) return errR('INVALID_VALUE', `${path}.power.amount must be a whole number from 1 to 99`, `${path}.power.amount`);
    if (typeof resource !== 'string' || resource.length === 0 || resource.length > MAX_TAG) return errR('INVALID_VALUE', `${path}.power.resource must be a name of 1 to ${MAX_TAG} characters`, `${path}.power.resource`);
    power = { amount, resource };
  }
  let escalation: AbilityEntry['escalation'] = null;
  const ej = j['escalation'];
  if (ej !== undefined && ej !== null) {
    const o = typeof ej === 'number' ? { min: ej } : ej;
    if (typeof o !== 'object' || Array.isArray(o)) return errR('INVALID_VALUE', `${path}.escalation must be a number or { min, parity?, special? }`, `${path}.escalation`);
    const min = o['min'] ?? 0;
    const parity = o['parity'] ?? null;
    if (typeof min !== 'number' || !Number.isInteger(min) || min < 0 || min > 6) return errR('INVALID_VALUE', `${path}.escalation.min must be a whole number from 0 to 6`, `${path}.escalation.min`);
    if (parity !== null && parity !== 'even' && parity !== 'odd') return errR('INVALID_VALUE', `${path}.escalation.parity must be "even" or "odd"`, `${path}.escalation.parity`);
    escalation = { min, parity, special: o['special'] === true };
  }
  const other = tagList(j['other'], `${path}.other`);
  if (!other.ok) return other;
  const attack = parseAttack(j['attack'], `${path}.attack`);
  if (!attack.ok) return attack;
  return okR({
    id,
    name,
    types: types.value,
    frequency: freq.value,
    action: action as ActionKind,
    provokes: j['provokes'] === true,
    sustain: sustain as number | null,
    power,
    escalation,
    basic: j['basic'] === true,
    other: other.value,
    ...(attack.value !== null ? { attack: attack.value } : {}),
  });
}

/** A stored entry in the shape an ability is entered (so a sheet form can start from it and send it back). */
export function abilityAsEntered(a: AbilityEntry): { readonly [k: string]: Json } {
  const e: { [k: string]: Json } = {
    id: a.id,
    name: a.name,
    types: [...a.types],
    frequency: a.frequency.kind === 'recharge' ? `recharge ${a.frequency.target}+` : a.frequency.kind,
    action: a.action,
    provokes: a.provokes,
    basic: a.basic,
    other: [...a.other],
  };
  if (a.sustain !== null) e['sustain'] = a.sustain;
  if (a.power !== null) e['power'] = { amount: a.power.amount, resource: a.power.resource };
  if (a.escalation !== null) e['escalation'] = { min: a.escalation.min, ...(a.escalation.parity !== null ? { parity: a.escalation.parity } : {}), special: a.escalation.special };
  if (a.attack !== undefined) {
    const t = a.attack;
    e['attack'] = {
      defense: t.defense,
      bonus: t.bonus,
      reach: t.reach,
      targets: t.targets,
      asBasic: t.asBasic,
      miss: t.miss,
      types: [...t.types],
      rollAllFirst: t.rollAllFirst,
      ...(t.wholeBonus === true ? { wholeBonus: true } : {}),
      ...(t.hit !== null ? { hit: { ...t.hit } } : {}),
      ...(t.missDice !== null ? { missDice: { ...t.missDice } } : {}),
    };
  }
  return e;
}

export interface UseContext {
  readonly escalation: number;
  readonly use: AbilityUse | undefined;
  readonly resources: { readonly [resource: string]: number };
  readonly hampered: boolean;
}

/** Why an ability cannot be used now, or null. */
export function cannotUse(a: AbilityEntry, ctx: UseContext): { code: string; message: string } | null {
  if (a.frequency.kind !== 'at-will' && ctx.use?.expended === true) {
    // 002 "Frequency": a recharge ability comes back on its roll at a quick rest (review 7: "until a 11+ recharge roll" read badly).
    const back = a.frequency.kind === 'encounter' ? 'until a quick or full rest' : a.frequency.kind === 'daily' ? 'until a full rest' : `(recharge ${a.frequency.target}+ at a quick rest)`;
    return { code: 'ABILITY_EXPENDED', message: `${a.name} is expended ${back}` };
  }
  if (ctx.hampered && !a.basic && !a.other.includes('rally') && !a.other.includes('hampered-ok')) {
    return { code: 'HAMPERED', message: `Hampered: only basic attacks, opportunity attacks, moving, Rally and sustaining are allowed (${a.name} is not basic)` };
  }
  if (a.escalation !== null && !a.escalation.special) {
    if (ctx.escalation < a.escalation.min) return { code: 'ESCALATION_TOO_LOW', message: `${a.name} needs escalation ${a.escalation.min}+ (it is ${ctx.escalation})` };
    if (a.escalation.parity !== null && escalationParity(ctx.escalation) !== a.escalation.parity) {
      return { code: 'ESCALATION_PARITY', message: `${a.name} needs an ${a.escalation.parity} escalation die (it is ${ctx.escalation}, ${escalationParity(ctx.escalation)})` };
    }
  }
  if (a.power !== null && (ctx.resources[a.power.resource] ?? 0) < a.power.amount) {
    return { code: 'NOT_ENOUGH_POWER', message: `${a.name} costs ${a.power.amount} ${a.power.resource}; ${ctx.resources[a.power.resource] ?? 0} left` };
  }
  return null;
}

/** Spent on use: everything but at-will abilities. */
export function expendsOnUse(a: AbilityEntry): boolean {
  return a.frequency.kind !== 'at-will';
}

/** Which expended abilities a rest gives back without a roll ('quick': encounter ones; 'full': all). */
export function restoredByRest(a: AbilityEntry, rest: 'quick' | 'full'): boolean {
  if (rest === 'full') return true;
  return a.frequency.kind === 'encounter';
}

/** Abilities that roll to recharge at a quick rest. */
export function rechargeTarget(a: AbilityEntry): number | null {
  return a.frequency.kind === 'recharge' ? a.frequency.target : null;
}
