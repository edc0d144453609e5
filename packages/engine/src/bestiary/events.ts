// The bestiary's event union (STYLE 2): a saved stat block or template is stored
// whole; `replaced` says it kept its id (absent: a new one, which claims its id).
import type { BestiaryEntry, EncounterTemplate } from './model.js';

/** What both collections' items have: an id and the name the GM sees. */
export type Saved = { readonly id: string; readonly name: string };

type Removed = { readonly id: string; readonly name: string };

export type BestiaryEvent =
  | { readonly type: 'bestiary.saved'; readonly entry: BestiaryEntry; readonly replaced?: boolean }
  | ({ readonly type: 'bestiary.removed' } & Removed)
  | { readonly type: 'bestiary.imported'; readonly entries: readonly BestiaryEntry[] }
  | { readonly type: 'bestiary.templateSaved'; readonly template: EncounterTemplate; readonly replaced?: boolean }
  | ({ readonly type: 'bestiary.templateRemoved' } & Removed);
