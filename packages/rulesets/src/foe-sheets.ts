// A foe's sheet from its bestiary stat block (issue 20, ADR 40): what the 36th
// Way's and the teams' attack commands read, built from the block's flat
// fields so the GM's "Orc Raider: +7 vs AC, 2d6" becomes the foe's attack.
// Imports nothing at run time: the browser entry re-exports it (ADR 7).

type Block = { readonly [k: string]: unknown };

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** "2d6+3", "d8", "1d10 - 1" or a flat "5" as { count, sides, bonus }; null for anything else. */
export function diceOfText(text: string): { count: number; sides: number; bonus: number } | null {
  const t = text.replace(/\s+/g, '').toLowerCase();
  const flat = /^([+-]?\d{1,4})$/.exec(t);
  if (flat !== null) return { count: 0, sides: 6, bonus: Number(flat[1]) };
  const m = /^(\d{0,3})d(\d{1,3})([+-]\d{1,4})?$/.exec(t);
  if (m === null) return null;
  const count = m[1] === '' ? 1 : Number(m[1]);
  const sides = Number(m[2]);
  if (count < 0 || count > 100 || sides < 1 || sides > 100) return null;
  return { count, sides, bonus: m[3] === undefined ? 0 : Number(m[3]) };
}

/** The id of the ability a stat block's attack becomes on a 36th Way sheet. */
export const BLOCK_ATTACK_ID = 'stat-block-attack';

/**
 * The 36th Way: the sheet fields a block gives (002 "Attacks": a monster's
 * attack line is its whole bonus, the defence it targets, hit and miss
 * damage). The attack is an at-will basic ability with `wholeBonus`, so no
 * Level or Volition is added; the escalation die only when the block says.
 */
export function tswFoeSheet(block: Block): { [k: string]: unknown } {
  const out: { [k: string]: unknown } = {};
  for (const k of ['level', 'ac', 'pd', 'md'] as const) if (num(block[k]) !== null) out[k] = num(block[k]);
  if (typeof block['escalation'] === 'boolean') out['usesEscalation'] = block['escalation'];
  // One resisted type at its number (12+ when left out: 002 calls 12 or less a low resistance) and one weakness.
  const resisted = str(block['resistType']);
  if (resisted !== null) out['resist'] = { [resisted]: num(block['resistAt']) ?? 12 };
  const weak = str(block['weakTo']);
  if (weak !== null) out['weak'] = [weak];
  // The block's other abilities as it lists them, after its attack (the first listed attack is the Hampered one's).
  const more = Array.isArray(block['abilities']) ? block['abilities'].filter((x) => x !== null && typeof x === 'object' && !Array.isArray(x)) : [];
  const bonus = num(block['attackBonus']);
  const damage = str(block['damage']);
  if (bonus === null && damage === null) {
    if (more.length > 0) out['abilities'] = more;
    return out;
  }
  const hit = damage === null ? null : diceOfText(damage);
  const missText = str(block['missDamage']);
  const miss = missText === null ? { miss: 'none' } : missText.toLowerCase() === 'level' ? { miss: 'level' } : diceOfText(missText) !== null ? { miss: 'dice', missDice: diceOfText(missText) } : { miss: 'none' };
  const reach = block['attackReach'];
  out['abilities'] = [
    {
      id: BLOCK_ATTACK_ID,
      name: str(block['attackName']) ?? 'Attack',
      types: reach === 'nearby' || reach === 'far' ? ['ranged'] : ['melee'],
      frequency: 'at-will',
      action: 'standard',
      // The first listed attack is what a Hampered enemy may still use (002 "Hampered").
      basic: true,
      attack: {
        defense: block['attackVs'] === 'pd' || block['attackVs'] === 'md' ? block['attackVs'] : 'ac',
        bonus: bonus ?? 0,
        wholeBonus: true,
        reach: reach === 'nearby' || reach === 'far' ? reach : 'engaged',
        targets: 1,
        ...(hit !== null ? { hit } : {}),
        ...miss,
      },
    },
    ...more,
  ];
  return out;
}

/** The key of the weapon a teams stat block gives its foe. */
export const BLOCK_WEAPON_ID = 'weapon';

/**
 * Teams: the sheet fields a block gives (003 "Attacks": an attribute die the
 * weapon allows plus the combat skill die and a proficiency against evasion;
 * "Damage": constitution and stamina to fortify with strength, athletics and
 * fortitude). Dice come as "d6".
 */
export function teamsFoeSheet(block: Block): { [k: string]: unknown } {
  const out: { [k: string]: unknown } = {};
  for (const k of ['evasion', 'size', 'deflection', 'maxEndurance', 'maxHealth', 'maxStamina', 'constitution'] as const) if (num(block[k]) !== null) out[k] = num(block[k]);
  // Dice are picked as "d6" (a whole number is taken as the die size too).
  const die = (v: unknown): number | null => num(v) ?? (typeof v === 'string' && /^d\d{1,2}$/.test(v) ? Number(v.slice(1)) : null);
  const pick = (keys: readonly string[]) => Object.fromEntries(keys.flatMap((k) => (die(block[k]) === null ? [] : [[k, die(block[k])!]])));
  const attributes = pick(['strength', 'dexterity']);
  const skills = pick(['combat', 'athletics']);
  const proficiencies: { [k: string]: number } = {};
  if (num(block['martial']) !== null) proficiencies['martial'] = num(block['martial'])!;
  if (num(block['fortitude']) !== null) proficiencies['fortitude'] = num(block['fortitude'])!;
  if (Object.keys(attributes).length > 0) out['attributes'] = attributes;
  if (Object.keys(skills).length > 0) out['skills'] = skills;
  if (Object.keys(proficiencies).length > 0) out['proficiencies'] = proficiencies;
  const damage = num(block['weaponDamage']);
  if (damage !== null) {
    // The weapon uses the attributes the block gives (strength first), as a foe's one weapon.
    const uses = Object.keys(attributes).length > 0 ? Object.keys(attributes) : ['strength'];
    const crit = num(block['criticalDamage']);
    const threshold = num(block['criticalThreshold']);
    const type = str(block['damageType']);
    const delivery = block['delivery'] === 'thrown' || block['delivery'] === 'projectile' ? block['delivery'] : 'melee';
    out['items'] = {
      [BLOCK_WEAPON_ID]: {
        name: str(block['weapon']) ?? 'Weapon',
        weapon: {
          attributes: uses,
          proficiencies: proficiencies['martial'] !== undefined ? ['martial'] : [],
          damage,
          ...(crit !== null ? { criticalDamage: crit } : {}),
          ...(threshold !== null ? { criticalThreshold: threshold } : {}),
          ...(type !== null ? { damageType: type.toLowerCase() } : {}),
          delivery,
        },
      },
    };
    out['wielded'] = [BLOCK_WEAPON_ID];
  }
  return out;
}

/** A number the "add a foe" form asks for, with the bestiary's limits (stat-blocks.ts). */
export interface QuickStat {
  readonly key: string;
  readonly label: string;
  readonly min: number;
  readonly max: number;
  /** Dice as text ("1d6+1", or a number) instead of one whole number; min and max then bound nothing. */
  readonly dice?: true;
  /** What the box is for, as its tooltip (default: the number an attack against the foe rolls against). */
  readonly hint?: string;
}

/** The Kleptonomicon's damage dice limits (kleptonomicon/attack.ts DAMAGE_LIMITS; kept equal by a test). */
export const QUICK_DICE_LIMITS = { count: 20, sides: 100, bonus: 100 } as const;

/** What a quick-stat dice box read: the text to keep (written as the attack's parser writes it) and its dice, or why not. */
export type QuickDice = { readonly ok: true; readonly text: string; readonly dice: { readonly count: number; readonly sides: number; readonly bonus: number } } | { readonly ok: false; readonly why: string };

/**
 * Damage dice typed in a quick-stat box, read by diceOfText within QUICK_DICE_LIMITS.
 * Edge cases, decided on purpose: a leading zero is dropped ("03" keeps "3", "02d6"
 * keeps "2d6"); "+3" is 3, but "-3" is refused (damage is never negative); "0d6" is
 * refused (it rolls nothing, though diceOfText reads it as a flat 0); a space inside a
 * number ("1 0d6") is refused rather than guessed at. `why` follows the box's label.
 */
export function quickDice(typed: string): QuickDice {
  const L = QUICK_DICE_LIMITS;
  const no = (why: string): QuickDice => ({ ok: false, why });
  const t = typed.trim();
  if (/\d\s+\d/.test(t)) return no(`has a space inside a number ("${t}"): type it without the space.`);
  const read = diceOfText(t);
  if (read === null) return no(`must be dice such as 1d6+1 (at most ${L.count} dice of 2 to ${L.sides} sides, a bonus up to ${L.bonus}), or a number up to ${L.bonus}.`);
  const d = { ...read, bonus: read.bonus + 0 }; // "-0" is 0
  if (d.count === 0 && /d/i.test(t)) return no(`rolls no dice ("${t}"): type 1 to ${L.count} dice, or 0 for no damage.`);
  if (d.count === 0) {
    if (d.bonus < 0) return no(`can't be negative (${d.bonus}): type a number from 0 to ${L.bonus}, or dice with a minus such as 1d6-1.`);
    if (d.bonus > L.bonus) return no(`is at most ${L.bonus} (${d.bonus} typed).`);
    return { ok: true, text: String(d.bonus), dice: { count: 0, sides: 1, bonus: d.bonus } };
  }
  if (d.count > L.count) return no(`rolls at most ${L.count} dice (${d.count} typed).`);
  if (d.sides < 2 || d.sides > L.sides) return no(`needs dice of 2 to ${L.sides} sides (d${d.sides} typed).`);
  if (Math.abs(d.bonus) > L.bonus) return no(`takes a bonus from -${L.bonus} to ${L.bonus} (${d.bonus > 0 ? '+' : ''}${d.bonus} typed).`);
  const dice = `${d.count}d${d.sides}`;
  return { ok: true, text: d.bonus === 0 ? dice : `${dice}${d.bonus > 0 ? '+' : '-'}${Math.abs(d.bonus)}`, dice: d };
}

// The numbers an attack against the foe reads, per ruleset (issue 17: declared here, not in the web).
const QUICK_STATS: { readonly [rulesetId: string]: readonly QuickStat[] } = {
  osr: [{ key: 'ac', label: 'AC', min: 0, max: 30 }],
  '36th-way': [
    { key: 'ac', label: 'AC', min: 0, max: 40 },
    { key: 'pd', label: 'PD', min: 0, max: 40 },
    { key: 'md', label: 'MD', min: 0, max: 40 },
  ],
  teams: [{ key: 'evasion', label: 'Evasion', min: 0, max: 30 }],
  // 004 gives a Basic Attack no numbers (ADR 51), so a typed foe's are asked here, as its stat block's are (review 13 #3).
  kleptonomicon: [
    { key: 'defense', label: 'Defense', min: 0, max: 100 },
    { key: 'attackModifier', label: 'Basic Attack modifier', min: -50, max: 50, hint: "its Basic Attack's Test modifier (the d10 + this must reach the target's Defense)" },
    { key: 'attackDamage', label: 'Basic Attack damage', min: 0, max: 0, dice: true, hint: 'its Basic Attack damage on a hit: dice such as 1d6+1, or a number' },
  ],
};

/** The quick stats the "add a foe" form asks for on this ruleset's tables (none where any combatant is a target already). */
export function quickStatsOf(rulesetId: string): readonly QuickStat[] {
  return Object.hasOwn(QUICK_STATS, rulesetId) ? QUICK_STATS[rulesetId]! : [];
}

/**
 * What an attack on a foe reads: a character (OSR's attacks name characters, so a
 * foe with an AC plays one made for it), a sheet the ruleset keeps under its
 * combatant id (the 36th Way, teams), or the combatant's own numbers.
 */
export type FoeTarget = 'character' | 'kept-sheet' | 'combatant';

export function foeTargetOf(rulesetId: string): FoeTarget {
  return rulesetId === 'osr' ? 'character' : rulesetId === '36th-way' || rulesetId === 'teams' ? 'kept-sheet' : 'combatant';
}

/**
 * The command that gives a foe on the tracker the sheet its ruleset's attack reads
 * (keyed by its combatant id), from its stat block or quick stats; null where the
 * ruleset keeps none or the numbers it needs are missing (teams an Evasion or
 * health; a 36th Way foe takes the sheet's defaults for what it lacks).
 */
export function foeSheetCommandOf(rulesetId: string, foe: { readonly id: string; readonly name: string; readonly hp: number | null; readonly block: Block }): { readonly type: string; readonly [field: string]: unknown } | null {
  const given = (keys: readonly string[]): boolean => keys.some((k) => num(foe.block[k]) !== null);
  // A 36th Way foe always gets one (review 9: a builder "Orc x2" could not act until a 25-field sheet was saved for
  // each): what the block leaves out takes the sheet's defaults (level 1, AC/PD/MD 10, the basic melee attack).
  if (rulesetId === '36th-way') {
    return { type: '36th-way.sheet.set', sheet: { id: foe.id, name: foe.name, kind: 'npc', ...tswFoeSheet(foe.block), ...(foe.hp !== null ? { maxHp: foe.hp } : {}) } };
  }
  if (rulesetId === 'teams' && given(['evasion', 'maxHealth'])) {
    const health = foe.hp ?? num(foe.block['maxHealth']);
    return { type: 'character.sheet.set', characterId: foe.id, sheet: { name: foe.name, ...teamsFoeSheet(foe.block), ...(health !== null ? { maxHealth: health } : {}) } };
  }
  return null;
}
