// A character's numbers in the team game (003), as the GM enters them: dice
// for attributes and skills, fixed proficiencies, defences, the four tracks
// (endurance, health, stamina, focus) and items with durability. Kept in
// world.ext.teams.sheets keyed by combatant id.
import type { Json, Result, RuleError } from '@tablekeeper/engine';
import { damageCategory } from './damage.js';

export const LIMITS = {
  name: 80,
  key: 40,
  entries: 40,
  items: 40,
  /** Die sizes we accept for attributes and skills. */
  dice: [2, 4, 6, 8, 10, 12, 20] as readonly number[],
  /** Any fixed number on a sheet (proficiencies, defences, tracks). */
  value: 10_000,
  size: 20,
} as const;

export type Delivery = 'melee' | 'thrown' | 'projectile';

export interface Weapon {
  /** Attributes the weapon may use (Boudica's spear: strength or dexterity). */
  readonly attributes: readonly string[];
  readonly proficiencies: readonly string[];
  readonly damage: number;
  readonly criticalDamage: number;
  /** Luck roll at or above this is a critical; null = the table's default. */
  readonly criticalThreshold: number | null;
  readonly damageType: string;
  readonly delivery: Delivery;
  readonly nonlethal: boolean;
}

export interface Item {
  readonly name: string;
  readonly metal: boolean;
  readonly durability: number;
  readonly maxDurability: number;
  /** Block value (items with the block property), or null. */
  readonly block: number | null;
  /** Parry value, or null (parrying with it then adds 1). */
  readonly parry: number | null;
  readonly weapon: Weapon | null;
}

export interface Sheet {
  readonly name: string;
  readonly characterId: string | null;
  /** Attribute dice by name: { strength: 6 } is a d6. */
  readonly attributes: { readonly [name: string]: number };
  readonly skills: { readonly [name: string]: number };
  readonly proficiencies: { readonly [name: string]: number };
  readonly evasion: number;
  /** Damage reduction by category (deflection). */
  readonly deflection: { readonly physical: number; readonly elemental: number };
  readonly size: number;
  /** Fixed modifier to the luck die. */
  readonly luck: number;
  readonly constitution: number;
  readonly endurance: number;
  readonly maxEndurance: number;
  readonly health: number;
  readonly maxHealth: number;
  readonly stamina: number;
  readonly maxStamina: number;
  readonly focus: number;
  readonly maxFocus: number;
  readonly items: { readonly [id: string]: Item };
  /** Items in hand (Brandish chooses them); only wielded items block or parry. */
  readonly wielded: readonly string[];
  /** Players see only the name and harmed / bloodied / conscious / dead. */
  readonly secret: boolean;
  readonly conscious: boolean;
  readonly dead: boolean;
  /** Difficulty of the next cheat-death luck test (raised by each success). */
  readonly deathDifficulty: number;
}

type Obj = { readonly [k: string]: Json };

function bad(path: string, message: string): { ok: false; error: RuleError } {
  return { ok: false, error: { code: 'BAD_SHEET', message: `${path}: ${message}`, path } };
}

function isObj(j: Json | undefined): j is Obj {
  return j !== null && j !== undefined && typeof j === 'object' && !Array.isArray(j);
}

function int(j: Json | undefined, path: string, dflt: number | undefined, min: number = -LIMITS.value, max: number = LIMITS.value): Result<number> {
  if (j === undefined && dflt !== undefined) return { ok: true, value: dflt };
  if (typeof j !== 'number' || !Number.isInteger(j) || j < min || j > max) return bad(path, `must be an integer in [${min}, ${max}]`);
  return { ok: true, value: j };
}

function text(j: Json | undefined, path: string, dflt?: string, max: number = LIMITS.name): Result<string> {
  if (j === undefined && dflt !== undefined) return { ok: true, value: dflt };
  if (typeof j !== 'string' || j.length === 0 || j.length > max) return bad(path, `must be a string of 1-${max} characters`);
  return { ok: true, value: j };
}

function table(j: Json | undefined, path: string, die: boolean): Result<{ [k: string]: number }> {
  if (j === undefined) return { ok: true, value: {} };
  if (!isObj(j)) return bad(path, 'must be an object');
  const keys = Object.keys(j);
  if (keys.length > LIMITS.entries) return bad(path, `at most ${LIMITS.entries} entries`);
  const out: { [k: string]: number } = {};
  for (const k of keys) {
    if (k.length === 0 || k.length > LIMITS.key) return bad(`${path}.${k}`, `names are 1-${LIMITS.key} characters`);
    const v = j[k];
    if (die) {
      if (typeof v !== 'number' || !LIMITS.dice.includes(v)) return bad(`${path}.${k}`, `must be a die size (${LIMITS.dice.join(', ')})`);
      out[k.toLowerCase()] = v;
    } else {
      const n = int(v, `${path}.${k}`, undefined, -100, 100);
      if (!n.ok) return n;
      out[k.toLowerCase()] = n.value;
    }
  }
  return { ok: true, value: out };
}

function names(j: Json | undefined, path: string): Result<string[]> {
  if (j === undefined) return { ok: true, value: [] };
  if (!Array.isArray(j) || j.length > LIMITS.entries) return bad(path, `must be a list of at most ${LIMITS.entries} names`);
  const out: string[] = [];
  for (let i = 0; i < j.length; i++) {
    const s = text(j[i], `${path}[${i}]`, undefined, LIMITS.key);
    if (!s.ok) return s;
    out.push(s.value.toLowerCase());
  }
  return { ok: true, value: out };
}

export interface DurabilityDefaults {
  readonly metal: number;
  readonly other: number;
}

export function parseWeapon(j: Json | undefined, path: string): Result<Weapon | null> {
  if (j === undefined || j === null) return { ok: true, value: null };
  if (!isObj(j)) return bad(path, 'must be an object');
  const attributes = names(j['attributes'], `${path}.attributes`);
  if (!attributes.ok) return attributes;
  if (attributes.value.length === 0) return bad(`${path}.attributes`, 'a weapon lists at least one attribute');
  const proficiencies = names(j['proficiencies'], `${path}.proficiencies`);
  if (!proficiencies.ok) return proficiencies;
  const damage = int(j['damage'], `${path}.damage`, undefined, 0);
  if (!damage.ok) return damage;
  const criticalDamage = int(j['criticalDamage'], `${path}.criticalDamage`, damage.value, 0);
  if (!criticalDamage.ok) return criticalDamage;
  const ct = j['criticalThreshold'];
  const criticalThreshold = ct === undefined || ct === null ? { ok: true as const, value: null } : int(ct, `${path}.criticalThreshold`, undefined, 1, 100);
  if (!criticalThreshold.ok) return criticalThreshold;
  const damageType = text(j['damageType'], `${path}.damageType`, 'typeless', LIMITS.key);
  if (!damageType.ok) return damageType;
  if (damageCategory(damageType.value) === null) return bad(`${path}.damageType`, `unknown damage type "${damageType.value}"`);
  const delivery = j['delivery'] ?? 'melee';
  if (delivery !== 'melee' && delivery !== 'thrown' && delivery !== 'projectile') return bad(`${path}.delivery`, 'must be "melee", "thrown" or "projectile"');
  return {
    ok: true,
    value: {
      attributes: attributes.value,
      proficiencies: proficiencies.value,
      damage: damage.value,
      criticalDamage: criticalDamage.value,
      criticalThreshold: criticalThreshold.value,
      damageType: damageType.value.toLowerCase(),
      delivery,
      nonlethal: j['nonlethal'] === true,
    },
  };
}

export function parseItem(j: Json | undefined, path: string, d: DurabilityDefaults): Result<Item> {
  if (!isObj(j)) return bad(path, 'must be an object');
  const name = text(j['name'], `${path}.name`, path.split('.').pop() ?? 'item');
  if (!name.ok) return name;
  const metal = j['metal'] === true;
  // 003 "Parry": an item listing no durability has 10 if metal, else 4.
  const maxDurability = int(j['maxDurability'], `${path}.maxDurability`, metal ? d.metal : d.other, 0);
  if (!maxDurability.ok) return maxDurability;
  const durability = int(j['durability'], `${path}.durability`, maxDurability.value, 0, maxDurability.value);
  if (!durability.ok) return durability;
  const block = j['block'] === undefined || j['block'] === null ? { ok: true as const, value: null } : int(j['block'], `${path}.block`, undefined, 0);
  if (!block.ok) return block;
  const parry = j['parry'] === undefined || j['parry'] === null ? { ok: true as const, value: null } : int(j['parry'], `${path}.parry`, undefined, 0);
  if (!parry.ok) return parry;
  const weapon = parseWeapon(j['weapon'], `${path}.weapon`);
  if (!weapon.ok) return weapon;
  return { ok: true, value: { name: name.value, metal, durability: durability.value, maxDurability: maxDurability.value, block: block.value, parry: parry.value, weapon: weapon.value } };
}

/** A validated sheet from GM input; tracks default to full. */
export function parseSheet(j: Json | undefined, d: DurabilityDefaults, deathDifficulty: number): Result<Sheet> {
  if (!isObj(j)) return bad('sheet', 'must be an object');
  const name = text(j['name'], 'sheet.name', 'unnamed');
  if (!name.ok) return name;
  const ch = j['characterId'];
  if (ch !== undefined && ch !== null && (typeof ch !== 'string' || ch.length > LIMITS.name)) return bad('sheet.characterId', 'must be a character id');
  const attributes = table(j['attributes'], 'sheet.attributes', true);
  if (!attributes.ok) return attributes;
  const skills = table(j['skills'], 'sheet.skills', true);
  if (!skills.ok) return skills;
  const proficiencies = table(j['proficiencies'], 'sheet.proficiencies', false);
  if (!proficiencies.ok) return proficiencies;
  const nums: { [k: string]: number } = {};
  const spec: [string, number | undefined, number][] = [
    ['evasion', 0, 0],
    ['size', 4, 0],
    ['luck', 0, -100],
    ['constitution', 0, 0],
    ['maxEndurance', 0, 0],
    ['maxHealth', 1, 1],
    ['maxStamina', 0, 0],
    ['maxFocus', 0, 0],
  ];
  for (const [k, dflt, min] of spec) {
    const n = int(j[k], `sheet.${k}`, dflt, min, k === 'size' ? LIMITS.size : LIMITS.value);
    if (!n.ok) return n;
    nums[k] = n.value;
  }
  for (const [k, max] of [['endurance', 'maxEndurance'], ['health', 'maxHealth'], ['stamina', 'maxStamina'], ['focus', 'maxFocus']] as const) {
    const n = int(j[k], `sheet.${k}`, nums[max], 0, nums[max]);
    if (!n.ok) return n;
    nums[k] = n.value;
  }
  const defl = j['deflection'];
  let physical = 0;
  let elemental = 0;
  if (typeof defl === 'number') {
    const n = int(defl, 'sheet.deflection', undefined, 0);
    if (!n.ok) return n;
    physical = n.value;
    elemental = n.value;
  } else if (defl !== undefined) {
    if (!isObj(defl)) return bad('sheet.deflection', 'must be a number or { physical, elemental }');
    const p = int(defl['physical'], 'sheet.deflection.physical', 0, 0);
    if (!p.ok) return p;
    const e = int(defl['elemental'], 'sheet.deflection.elemental', 0, 0);
    if (!e.ok) return e;
    physical = p.value;
    elemental = e.value;
  }
  const itemsIn = j['items'] ?? {};
  if (!isObj(itemsIn)) return bad('sheet.items', 'must be an object keyed by item id');
  const itemIds = Object.keys(itemsIn);
  if (itemIds.length > LIMITS.items) return bad('sheet.items', `at most ${LIMITS.items} items`);
  const items: { [id: string]: Item } = {};
  for (const id of itemIds) {
    if (id.length === 0 || id.length > LIMITS.key) return bad(`sheet.items.${id}`, `item ids are 1-${LIMITS.key} characters`);
    const it = parseItem(itemsIn[id], `sheet.items.${id}`, d);
    if (!it.ok) return it;
    items[id] = it.value;
  }
  const wielded = names(j['wielded'], 'sheet.wielded');
  if (!wielded.ok) return wielded;
  const wieldedIds = (Array.isArray(j['wielded']) ? j['wielded'] : []).filter((x): x is string => typeof x === 'string');
  for (const w of wieldedIds) if (items[w] === undefined) return bad('sheet.wielded', `no item "${w}"`);
  const dd = int(j['deathDifficulty'], 'sheet.deathDifficulty', deathDifficulty, 1);
  if (!dd.ok) return dd;
  return {
    ok: true,
    value: {
      name: name.value,
      characterId: typeof ch === 'string' ? ch : null,
      attributes: attributes.value,
      skills: skills.value,
      proficiencies: proficiencies.value,
      evasion: nums['evasion']!,
      deflection: { physical, elemental },
      size: nums['size']!,
      luck: nums['luck']!,
      constitution: nums['constitution']!,
      endurance: nums['endurance']!,
      maxEndurance: nums['maxEndurance']!,
      health: nums['health']!,
      maxHealth: nums['maxHealth']!,
      stamina: nums['stamina']!,
      maxStamina: nums['maxStamina']!,
      focus: nums['focus']!,
      maxFocus: nums['maxFocus']!,
      items,
      wielded: wieldedIds,
      secret: j['secret'] === true,
      conscious: j['conscious'] !== false,
      dead: j['dead'] === true,
      deathDifficulty: dd.value,
    },
  };
}
