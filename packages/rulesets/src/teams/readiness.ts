// What a teams PC still lacks to attack and to parry (review 12 #7, #10), read
// from its sheet as the GM's view holds it, and the patch that arms it with one
// wielded weapon from a short row. 003 "Attacks": attribute die + combat skill
// die + proficiency; "Parry": only wielded items parry; "Staying Conscious".
// Browser-safe: imports only the damage types table.
import { DAMAGE_TYPES } from './damage.js';

type Obj = { readonly [k: string]: unknown };
const isObj = (x: unknown): x is Obj => x !== null && typeof x === 'object' && !Array.isArray(x);
const COMBAT = 'combat';
/** The attributes a weapon row offers first (003's examples), before the sheet's own. */
const USUAL_ATTRIBUTES = ['strength', 'dexterity'] as const;
/** Die sizes the sheet takes for attributes and skills (sheet.ts LIMITS.dice). */
export const WEAPON_ROW_DICE = [4, 6, 8, 10, 12] as const;

/** Weapons on the sheet (items with a weapon), by key, with the attributes each may use. */
function weapons(sheet: Obj): { key: string; attributes: string[] }[] {
  const items = isObj(sheet['items']) ? sheet['items'] : {};
  return Object.entries(items).flatMap(([key, it]) => {
    const w = isObj(it) ? it['weapon'] : null;
    if (!isObj(w)) return [];
    return [{ key, attributes: Array.isArray(w['attributes']) ? w['attributes'].filter((a): a is string => typeof a === 'string') : [] }];
  });
}

/** What the sheet still lacks to attack, to parry, or to stay conscious after a hit, each in words; [] when armed. */
export function teamsLacks(name: string, sheet: Obj | null): string[] {
  if (sheet === null) return [`${name} has no sheet yet: save one, or arm ${name} with the weapon row below.`];
  const out: string[] = [];
  const skills = isObj(sheet['skills']) ? sheet['skills'] : {};
  const attributes = isObj(sheet['attributes']) ? sheet['attributes'] : {};
  const list = weapons(sheet);
  if (typeof skills[COMBAT] !== 'number') out.push(`To attack: a combat skill die (an attack rolls attribute + combat skill).`);
  if (list.length === 0) out.push(`To attack: a weapon (an item with a weapon, such as a sword).`);
  else if (!list.some((w) => w.attributes.some((a) => typeof attributes[a] === 'number'))) out.push(`To attack: a die for the attribute ${list[0]!.attributes[0] ?? 'its weapon'} uses.`);
  const wielded = Array.isArray(sheet['wielded']) ? sheet['wielded'] : [];
  if (wielded.length === 0) out.push(`To parry or block: an item in hand (Wielded); only wielded items parry.`);
  if ((typeof sheet['constitution'] === 'number' ? sheet['constitution'] : 0) === 0) out.push(`Constitution 0: the first health lost means fortifying or falling unconscious.`);
  return out;
}

/** The weapon row's choices: damage types from 003's table, attributes the sheet has first, then the usual ones. */
export function weaponRowChoices(sheet: Obj | null): { readonly attributes: readonly string[]; readonly damageTypes: readonly string[] } {
  const own = sheet !== null && isObj(sheet['attributes']) ? Object.keys(sheet['attributes']) : [];
  return { attributes: [...new Set([...own, ...USUAL_ATTRIBUTES])], damageTypes: Object.keys(DAMAGE_TYPES) };
}

export interface WeaponRow {
  readonly name: string;
  readonly attribute: string;
  readonly damage: number;
  readonly damageType: string;
  readonly wielded: boolean;
  /** Die sizes given only where the sheet has none yet (the attribute's, the combat skill's). */
  readonly attributeDie: number;
  readonly combatDie: number;
  /** Other attributes the weapon may roll instead (003 "Attacks": a spear takes strength or dexterity). */
  readonly also?: readonly string[];
}

/** "sword (in hand), bow": the weapons on the sheet by name, the wielded ones marked; '' for none. */
export function weaponsLine(sheet: Obj | null): string {
  if (sheet === null) return '';
  const items = isObj(sheet['items']) ? sheet['items'] : {};
  const wielded = Array.isArray(sheet['wielded']) ? sheet['wielded'] : [];
  return weapons(sheet)
    .map((w) => {
      const it = items[w.key];
      const name = isObj(it) && typeof it['name'] === 'string' ? it['name'] : w.key;
      return `${name}${w.attributes.length > 0 ? ` (rolls ${w.attributes.join(' or ')}${wielded.includes(w.key) ? ', in hand' : ''})` : wielded.includes(w.key) ? ' (in hand)' : ''}`;
    })
    .join(', ');
}

/**
 * The sheet patch that adds this weapon (its key from its name), in hand when asked, and the attribute and
 * combat skill dice the sheet lacks; the items and dice it has are kept. Null with why when a value is off.
 */
export function weaponRowPatch(sheet: Obj | null, row: WeaponRow): { ok: true; patch: { [k: string]: unknown } } | { ok: false; message: string } {
  const name = row.name.trim();
  if (name === '' || name.length > 40) return { ok: false, message: 'Name the weapon (1 to 40 characters), such as sword.' };
  if (!Number.isInteger(row.damage) || row.damage < 0 || row.damage > 10_000) return { ok: false, message: 'Damage is a whole number from 0 to 10000.' };
  if (!Object.hasOwn(DAMAGE_TYPES, row.damageType)) return { ok: false, message: `Damage type "${row.damageType}" is not one of 003's.` };
  const key = name.toLowerCase();
  const items = sheet !== null && isObj(sheet['items']) ? sheet['items'] : {};
  const attributes = sheet !== null && isObj(sheet['attributes']) ? sheet['attributes'] : {};
  const skills = sheet !== null && isObj(sheet['skills']) ? sheet['skills'] : {};
  const wielded = sheet !== null && Array.isArray(sheet['wielded']) ? sheet['wielded'].filter((w): w is string => typeof w === 'string') : [];
  const uses = [...new Set([row.attribute, ...(row.also ?? [])])].filter((a) => a.trim() !== '');
  const item = { ...(isObj(items[key]) ? items[key] : {}), name, weapon: { attributes: uses, damage: row.damage, damageType: row.damageType } };
  return {
    ok: true,
    patch: {
      items: { ...items, [key]: item },
      ...(row.wielded && !wielded.includes(key) ? { wielded: [...wielded, key] } : {}),
      ...(typeof attributes[row.attribute] === 'number' ? {} : { attributes: { ...attributes, [row.attribute]: row.attributeDie } }),
      ...(typeof skills[COMBAT] === 'number' ? {} : { skills: { ...skills, [COMBAT]: row.combatDie } }),
    },
  };
}
