// A short "weapon in hand" row and what a creature still lacks to fight, for
// the GM's sheet editor, where the ruleset's sheet keeps weapons as items
// (teams, review 12 #7): the web asks this, never the ruleset's id.
// Browser-safe: the teams part imports only its damage table.
import { teamsLacks, weaponRowChoices, weaponRowPatch, weaponsLine, WEAPON_ROW_DICE, type WeaponRow } from './teams/readiness.js';

export type { WeaponRow };

export interface Arming {
  /** What the sheet still lacks to attack, parry or stay up, each in words; [] when ready. */
  readonly lacks: (name: string, sheet: { readonly [k: string]: unknown } | null) => string[];
  readonly choices: (sheet: { readonly [k: string]: unknown } | null) => { readonly attributes: readonly string[]; readonly damageTypes: readonly string[] };
  readonly patch: (sheet: { readonly [k: string]: unknown } | null, row: WeaponRow) => { ok: true; patch: { [k: string]: unknown } } | { ok: false; message: string };
  readonly dice: readonly number[];
  /** The weapons the sheet holds, in words ("sword (rolls strength, in hand), bow (rolls dexterity)"). */
  readonly weapons: (sheet: { readonly [k: string]: unknown } | null) => string;
}

const TEAMS: Arming = { lacks: teamsLacks, choices: weaponRowChoices, patch: weaponRowPatch, dice: WEAPON_ROW_DICE, weapons: weaponsLine };

/** The ruleset's weapon row and readiness lines, or null where its sheet editor has none. */
export function armingOf(rulesetId: string): Arming | null {
  return rulesetId === 'teams' ? TEAMS : null;
}
