// The GM's sheet editor (36th Way, teams): which combatants it offers, the JSON
// it starts from, and the command that saves it. The sheets are read through the
// rulesets' browser selectors (issue 17: the web never walks world.ext); the
// server parses and checks every field, nothing here judges a sheet.
import type { EncounterState, Json, World } from '@tablekeeper/engine';
import { abilityAsEntered, hasKeptSheet, keptSheetAsEntered, keptSheetRulesOf, keptSheets, type KeptSheetRules } from '@tablekeeper/rulesets/browser';
import type { ClientCommand } from '../net/codec.ts';
import { displayOrder } from './encounter.ts';

export type SheetRules = KeptSheetRules;
export { abilityAsEntered };

export function sheetRulesOf(world: World): SheetRules | null {
  return keptSheetRulesOf(world.rulesetId);
}

// The tracker's reading lives apart so the phone loads no editor code; kept here for old imports.
export { sheetTrackOf } from './sheetTrack.ts';

export interface SheetChoice {
  readonly id: string;
  readonly name: string;
  readonly kind: 'pc' | 'npc';
  readonly characterId: string | null;
  readonly hasSheet: boolean;
}

/** The encounter's combatants in turn order (a combatant's id is its sheet's id), then sheets of no one in it. */
export function sheetChoices(world: World, rules: SheetRules, enc: EncounterState | null): SheetChoice[] {
  void rules; // the table's own ruleset: its selectors know where it keeps sheets
  const sheets = keptSheets(world);
  const out: SheetChoice[] = [];
  for (const c of enc === null ? [] : displayOrder(enc)) out.push({ id: c.id, name: c.name, kind: c.kind, characterId: c.characterId, hasSheet: sheets[c.id] !== undefined });
  for (const [id, s] of Object.entries(sheets)) {
    if (out.some((c) => c.id === id)) continue;
    const ch = s['characterId'];
    out.push({ id, name: typeof s['name'] === 'string' ? s['name'] : id, kind: s['kind'] === 'npc' ? 'npc' : 'pc', characterId: typeof ch === 'string' ? ch : null, hasSheet: true });
  }
  return out;
}

/** The JSON the editor opens with: the stored sheet as the GM's view has it (play state left out), or a small template naming the combatant. */
export function sheetText(world: World, rules: SheetRules, c: SheetChoice): string {
  const stored = keptSheets(world)[c.id];
  const link = c.characterId === null ? {} : { characterId: c.characterId };
  if (stored === undefined) {
    const template =
      rules === '36th-way'
        ? { id: c.id, name: c.name, kind: c.kind, ...link, level: 1, volition: 0, ac: 12, pd: 12, md: 12, maxHp: 20, abilities: [] }
        : { name: c.name, ...link, attributes: { strength: 6 }, skills: { combat: 6 }, evasion: 5, constitution: 4, maxEndurance: 10, maxHealth: 10, items: {} };
    return JSON.stringify(template, null, 2);
  }
  return JSON.stringify(keptSheetAsEntered(rules, stored, { withoutPlayState: true }), null, 2);
}

/** The command that stores this text as the sheet (the 36th Way's own, else character.sheet.set), or why the text is not a JSON object. */
export function sheetCommand(rules: SheetRules, id: string, text: string): { ok: true; command: ClientCommand } | { ok: false; message: string } {
  let sheet: unknown;
  try {
    sheet = JSON.parse(text);
  } catch (e) {
    return { ok: false, message: `not JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (sheet === null || typeof sheet !== 'object' || Array.isArray(sheet)) return { ok: false, message: 'the sheet must be a JSON object { ... }' };
  // A 36th Way sheet names its own id; the chosen combatant's is the default.
  if (rules === '36th-way') return { ok: true, command: { type: '36th-way.sheet.set', sheet: { id, ...sheet } } };
  // Teams goes through the one sheet command (ADR 39): the creature it names is the sheet's link, so the text's own is dropped.
  const { characterId, ...rest } = sheet as { [k: string]: Json };
  return { ok: true, command: { type: 'character.sheet.set', characterId: typeof characterId === 'string' ? characterId : id, sheet: rest } };
}

/** Whether this combatant has a 36th Way or teams sheet (then damage goes through the ruleset's own command). */
export function hasSheet(world: World, id: string): SheetRules | null {
  const rules = sheetRulesOf(world);
  return rules !== null && hasKeptSheet(world, id) ? rules : null;
}
