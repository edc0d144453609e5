// A 36th Way PC needs a sheet of the ruleset's own before it can be targeted
// or act (its attacks, HP and defences live there). A PC added from the invite
// panel gets one at once, with the HP typed there; one made elsewhere without
// a sheet is named on its turn with a way to fill it in.
import { capabilitiesOf } from '@tablekeeper/rulesets/browser';
import type { ClientCommand } from '../net/codec.ts';

/**
 * The sheet a new PC from the invite panel starts with (the ruleset's defaults, the HP typed, if any, and what the
 * invite asked, by sheet key), or null where sheets are plain stats. Review 12 #1: teams asked and then dropped them.
 */
export function inviteSheetCommand(rulesetId: string, characterId: string, hp: number | null, asked: { readonly [key: string]: number } = {}): ClientCommand | null {
  const hpKeys = capabilitiesOf(rulesetId).inviteSheet;
  if (hpKeys === null) return null;
  const typed = hp !== null && Number.isInteger(hp) && hp > 0 ? Object.fromEntries(hpKeys.map((k) => [k, hp])) : {};
  return { type: 'character.sheet.set', characterId, sheet: { ...typed, ...asked } };
}

/** What the actions panel says for a creature whose ruleset keeps sheets and who has none ("Bram needs a 36th Way sheet"), or null. */
export function needsSheetLine(rulesetId: string, name: string, gm: boolean): string | null {
  const title = capabilitiesOf(rulesetId).sheetTitle;
  if (title === null) return null;
  return gm ? `${name} needs ${title} before acting or being targeted: fill it in.` : `${name} needs ${title} before acting: the GM fills it in.`;
}

/** The event the actions panel raises to open the GM's sheet editor on one creature. */
export const OPEN_SHEET_EVENT = 'tablekeeper:open-sheet';
