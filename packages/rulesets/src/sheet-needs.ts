// What a character's sheet still lacks that its ruleset's rules read (review 9):
// the sheet forms show such a field as "not set yet" and ask for it, rather
// than a default that is not the character's. Browser-safe: no World, no I/O.
import { sheetNeeds as daggerheartNeeds } from './daggerheart/rules.js';

type Needy = { readonly name: string; readonly kind: string; readonly stats: { readonly [k: string]: unknown } };

/** The fields this character's sheet must still fill in, each with why in words; {} when none. */
export function sheetNeedsOf(rulesetId: string, character: Needy): { readonly [field: string]: string } {
  return rulesetId === 'daggerheart' ? daggerheartNeeds(character) : {};
}
