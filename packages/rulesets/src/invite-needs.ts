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
}

/** Daggerheart: each class starts with its own Evasion (9 to 12), so none is made up; 0 to 60 as the sheet allows. */
const DAGGERHEART: readonly InviteNeed[] = [{ key: 'evasion', label: 'Evasion', min: 0, max: 60, why: "an adversary's attack rolls against it" }];

/** What the invite asks for beyond a name and HP, by ruleset; nothing where a rule reads no such number. */
export function inviteNeedsOf(rulesetId: string): readonly InviteNeed[] {
  return rulesetId === 'daggerheart' ? DAGGERHEART : [];
}
