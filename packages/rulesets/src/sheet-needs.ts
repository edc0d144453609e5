// What a character's sheet still lacks that its ruleset's rules read (review 9):
// the sheet forms show such a field as "not set yet" and ask for it, rather
// than a default that is not the character's. Browser-safe: no World, no I/O.
import { INVITE_NEEDS as DAGGERHEART_INVITE, sheetNeeds as daggerheartNeeds } from './daggerheart/rules.js';

type Needy = { readonly name: string; readonly kind: string; readonly stats: { readonly [k: string]: unknown } };

/** The fields this character's sheet must still fill in, each with why in words; {} when none. */
export function sheetNeedsOf(rulesetId: string, character: Needy): { readonly [field: string]: string } {
  return rulesetId === 'daggerheart' ? daggerheartNeeds(character) : {};
}

/** A number the invite's quick character must be given beside its HP, kept on its stats by key, with why in words. */
export interface InviteNeed {
  readonly key: string;
  readonly label: string;
  readonly min: number;
  readonly max: number;
  readonly why: string;
}

/**
 * What the invite asks for beyond a name and HP (ADR 79): Daggerheart's Evasion, which no single starting
 * value gives. A GM-only read, kept out of the capabilities the phone downloads.
 */
export function inviteNeedsOf(rulesetId: string): readonly InviteNeed[] {
  return rulesetId === 'daggerheart' ? DAGGERHEART_INVITE : [];
}
