// What the invite's quick character must be given beside a name and HP (ADR 79).
// Browser-safe and import-free: the GM screen reads it on first load, so it
// pulls no ruleset's rules along.

/** A number kept on the character's stats by key, within the sheet's limits, with why in words. */
export interface InviteNeed {
  readonly key: string;
  readonly label: string;
  readonly min: number;
  readonly max: number;
  readonly why: string;
  /** The box's placeholder where the label is too long for it ("Major" for "Major threshold"). */
  readonly short?: string;
  /** The key of another need this one may not be below (Severe is at least Major). */
  readonly atLeast?: string;
}

/**
 * Daggerheart: each class starts with its own Evasion (9 to 12), so none is made up; 0 to 60 as the sheet allows.
 * The damage thresholds too (review 12 #14: an invited PC could take no damage until the GM found the sheet), in the
 * sheet's limits (Major 1-200, Severe 1-400 and not below Major).
 */
const DAGGERHEART: readonly InviteNeed[] = [
  { key: 'evasion', label: 'Evasion', min: 0, max: 60, why: "an adversary's attack rolls against it" },
  { key: 'major', label: 'Major threshold', short: 'Major', min: 1, max: 200, why: 'damage at or above it marks 2 HP (below it, 1)' },
  { key: 'severe', label: 'Severe threshold', short: 'Severe', min: 1, max: 400, atLeast: 'major', why: 'damage at or above it marks 3 HP' },
];

/**
 * Teams (003 "Damage"): hits land on endurance before health, and Dodge, Parry, Block and Fortify spend stamina;
 * a PC given health only could take none of its reactions (review 11 #14). 003 "Staying Conscious": a blank
 * Constitution read as 0 dropped a PC at its first lost health (review 12 #10), so it is asked too, with its meaning;
 * Evasion as well (review 13 #2).
 * 10,000 is the sheet's own limit.
 */
const TEAMS: readonly InviteNeed[] = [
  { key: 'maxEndurance', label: 'Endurance', min: 0, max: 10_000, why: 'hits wear endurance down before health' },
  { key: 'maxStamina', label: 'Stamina', min: 0, max: 10_000, why: 'dodging, parrying, blocking and fortifying each spend it' },
  { key: 'constitution', label: 'Constitution', min: 0, max: 10_000, why: 'once more health is missing than this, each loss of health means fortifying or falling unconscious' },
  // Review 13 #2: left out, every invited PC had Evasion 0 and a small goblin hit it every time (003 "Attacks": the test is against it).
  { key: 'evasion', label: 'Evasion', min: 0, max: 10_000, why: "an attack's test must reach it to hit (size moves it)" },
];

/** What the invite asks for beyond a name and HP, by ruleset; nothing where a rule reads no such number. */
export function inviteNeedsOf(rulesetId: string): readonly InviteNeed[] {
  return rulesetId === 'daggerheart' ? DAGGERHEART : rulesetId === 'teams' ? TEAMS : [];
}
