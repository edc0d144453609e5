// How a kept sheet is stored, for the GM's sheet editor and forms (ADR 58): the
// 36th Way's own command or the one sheet command, and a new sheet's template.
// Its own file so the phone, which reads kept sheets but never writes one from
// the editor, does not load it. Browser-safe: type imports only (ADR 7).
import type { Json } from '@tablekeeper/engine';
import type { KeptSheetRules } from './sheets.js';
/** A creature a kept sheet is for, as the GM's sheet editor names it. */
export interface KeptSheetCreature {
  readonly id: string;
  readonly name: string;
  readonly kind: 'pc' | 'npc';
  readonly characterId: string | null;
}

type SheetCommand = { readonly type: string; readonly [k: string]: Json };

/** A new kept sheet's starting values (the GM editor's template): the 36th Way's sheet names its creature; a teams sheet is addressed by it. */
export function keptSheetTemplate(rules: KeptSheetRules, c: KeptSheetCreature): { readonly [k: string]: Json } {
  const link: { readonly [k: string]: Json } = c.characterId === null ? {} : { characterId: c.characterId };
  if (rules === '36th-way') return { id: c.id, name: c.name, kind: c.kind, ...link, level: 1, volition: 0, ac: 12, pd: 12, md: 12, maxHp: 20, abilities: [] };
  return { name: c.name, ...link, attributes: { strength: 6 }, skills: { combat: 6 }, evasion: 5, constitution: 4, maxEndurance: 10, maxHealth: 10, items: {} };
}

/**
 * The command that stores a sheet the GM typed for creature `id` (ADR 58): the 36th Way's own
 * command (its sheet names its own id, the creature's by default), else the one sheet command
 * (ADR 39), whose address is the sheet's link or the creature, so the text's link is dropped.
 */
export function keptSheetCommandFromText(rules: KeptSheetRules, id: string, sheet: { readonly [k: string]: Json }): SheetCommand {
  if (rules === '36th-way') return { type: '36th-way.sheet.set', sheet: { id, ...sheet } };
  const { characterId, ...rest } = sheet;
  return { type: 'character.sheet.set', characterId: typeof characterId === 'string' ? characterId : id, sheet: rest };
}

/**
 * The command that stores a form's values as the creature's whole sheet: the 36th Way's own
 * (id, name, kind and link from the creature), else character.sheet.set addressing the
 * character it plays (a character's one combatant takes its id, ADR 37) or its own id (ADR 39).
 */
export function keptSheetCommandFor(rules: KeptSheetRules, c: KeptSheetCreature, form: { readonly [k: string]: Json }): SheetCommand {
  const link: { readonly [k: string]: Json } = c.characterId === null ? {} : { characterId: c.characterId };
  if (rules === '36th-way') return { type: '36th-way.sheet.set', sheet: { ...form, id: c.id, name: c.name, kind: c.kind, ...link } };
  return { type: 'character.sheet.set', characterId: c.characterId ?? c.id, sheet: { ...form, name: c.name } };
}

/**
 * The command that removes a creature's kept sheet and keeps the creature (the GM editor's Remove):
 * the 36th Way's own command, or character.sheet.remove (addressed as character.sheet.set is) elsewhere.
 */
export function keptSheetRemoveCommand(rules: KeptSheetRules, c: KeptSheetCreature): SheetCommand | null {
  if (rules === '36th-way') return { type: '36th-way.sheet.remove', characterId: c.id };
  return { type: 'character.sheet.remove', characterId: c.characterId ?? c.id };
}
