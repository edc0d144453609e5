// The GM's sheet editor (36th Way, teams): which combatants it offers, the JSON
// it starts from, and the ruleset's own command that saves it. The server
// parses and checks every field; nothing here judges a sheet.
import type { EncounterState, Json, World } from '@tablekeeper/engine';
import type { ClientCommand } from '../net/codec.ts';
import { displayOrder } from './encounter.ts';

export type SheetRules = '36th-way' | 'teams';

export function sheetRulesOf(world: World): SheetRules | null {
  return world.rulesetId === '36th-way' || world.rulesetId === 'teams' ? world.rulesetId : null;
}

type Obj = { [k: string]: Json };
const obj = (v: Json | undefined): Obj | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? v : null);

function sheetsOf(world: World, rules: SheetRules): { [id: string]: Obj } {
  const out: { [id: string]: Obj } = {};
  for (const [id, s] of Object.entries(obj(obj(world.ext[rules])?.['sheets']) ?? {})) {
    const o = obj(s);
    if (o !== null) out[id] = o;
  }
  return out;
}

/** The numbers a tracker row shows, as the ruleset's sheet holds them. */
const TRACKED = ['hp', 'maxHp', 'endurance', 'maxEndurance', 'health', 'maxHealth', 'dead', 'unconscious'] as const;

/**
 * The 36th Way and teams keep hit points on a sheet keyed by combatant (or naming
 * the character), and their attacks damage that sheet, not the combatant's stats:
 * a tracker row reads them here so it never shows stale HP.
 */
export function sheetTrackOf(world: World, c: { readonly id: string; readonly characterId: string | null }): Obj {
  const rules = sheetRulesOf(world);
  if (rules === null) return {};
  const sheets = sheetsOf(world, rules);
  const s = sheets[c.id] ?? (c.characterId === null ? undefined : Object.values(sheets).find((x) => x['characterId'] === c.characterId));
  if (s === undefined) return {};
  const out: Obj = {};
  for (const k of TRACKED) if (s[k] !== undefined) out[k] = s[k]!;
  return out;
}

export interface SheetChoice {
  readonly id: string;
  readonly name: string;
  readonly kind: 'pc' | 'npc';
  readonly characterId: string | null;
  readonly hasSheet: boolean;
}

/** The encounter's combatants in turn order (a combatant's id is its sheet's id), then sheets of no one in it. */
export function sheetChoices(world: World, rules: SheetRules, enc: EncounterState | null): SheetChoice[] {
  const sheets = sheetsOf(world, rules);
  const out: SheetChoice[] = [];
  for (const c of enc === null ? [] : displayOrder(enc)) out.push({ id: c.id, name: c.name, kind: c.kind, characterId: c.characterId, hasSheet: sheets[c.id] !== undefined });
  for (const [id, s] of Object.entries(sheets)) {
    if (out.some((c) => c.id === id)) continue;
    const ch = s['characterId'];
    out.push({ id, name: typeof s['name'] === 'string' ? s['name'] : id, kind: s['kind'] === 'npc' ? 'npc' : 'pc', characterId: typeof ch === 'string' ? ch : null, hasSheet: true });
  }
  return out;
}

// Play state the server keeps on a stored sheet but a new sheet starts afresh
// (uses, dying, consciousness); left out so the text shows only what the GM sets.
const PLAY_STATE: { readonly [r in SheetRules]: readonly string[] } = {
  '36th-way': ['uses', 'dying', 'deathFailures', 'dead', 'unconscious', 'outOfFight', 'hitThisRound', 'exhaustion'],
  teams: ['conscious', 'dead', 'deathDifficulty'],
};

/** The JSON the editor opens with: the stored sheet as the GM's view has it, or a small template naming the combatant. */
export function sheetText(world: World, rules: SheetRules, c: SheetChoice): string {
  const stored = sheetsOf(world, rules)[c.id];
  const link = c.characterId === null ? {} : { characterId: c.characterId };
  if (stored === undefined) {
    const template =
      rules === '36th-way'
        ? { id: c.id, name: c.name, kind: c.kind, ...link, level: 1, volition: 0, ac: 12, pd: 12, md: 12, maxHp: 20, abilities: [] }
        : { name: c.name, ...link, attributes: { strength: 6 }, skills: { combat: 6 }, evasion: 5, constitution: 4, maxEndurance: 10, maxHealth: 10, items: {} };
    return JSON.stringify(template, null, 2);
  }
  const s: Obj = {};
  for (const [k, v] of Object.entries(stored)) if (!PLAY_STATE[rules].includes(k)) s[k] = v;
  // Stored 36th Way abilities are keyed by id and richer than entered; 36th-way.sheet.set takes them as a list.
  if (rules === '36th-way') s['abilities'] = Object.values(obj(stored['abilities']) ?? {}).map(abilityAsEntered);
  return JSON.stringify(s, null, 2);
}

/** The ruleset's real command for this text, or why the text is not a JSON object. */
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
  return { ok: true, command: { type: 'teams.setSheet', characterId: id, sheet } };
}

/** Whether this combatant has a 36th Way or teams sheet (then damage goes through the ruleset's own command). */
export function hasSheet(world: World, id: string): SheetRules | null {
  const rules = sheetRulesOf(world);
  return rules !== null && sheetsOf(world, rules)[id] !== undefined ? rules : null;
}


/** A stored 36th Way ability in the shape the sheet takes: the frequency as its word (or the recharge), unset parts left out. */
export function abilityAsEntered(stored: Json): Json {
  const a = obj(stored);
  if (a === null) return stored;
  const out: { [k: string]: Json } = {};
  for (const [k, v] of Object.entries(a)) if (v !== null) out[k] = v;
  const f = obj(a['frequency']);
  if (f !== null && f['kind'] !== 'recharge' && typeof f['kind'] === 'string') out['frequency'] = f['kind'];
  return out;
}
