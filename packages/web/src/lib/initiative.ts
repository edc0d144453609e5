// The encounter builder's pure part: rows the GM lines up (the party, "Goblin
// x6"), and the one encounter.start command that "Roll initiative" sends, in
// the shape the ruleset's turn order reads (ruleset's browser entry says
// which). The engine orders, and rolls where the rules roll (Edge Saves).
import type { Character, Combatant, EncounterState, Json } from '@tablekeeper/engine';
import { initiativeOf, type InitiativeField, type InitiativeMethod } from '@tablekeeper/rulesets/browser';
import { words } from './words.ts';

export { initiativeOf, type InitiativeMethod, type InitiativeField };

/** Most foes one "Goblin xN" line may add (the engine allows 200 combatants in all). */
export const MAX_GROUP = 50;
export const MAX_NAME = 80;

/** One row of the builder, before the encounter starts. */
export interface Draft {
  /** The combatant id it will have: never derived from the name (a hidden foe's id must not tell its name). */
  readonly id: string;
  readonly name: string;
  readonly kind: 'pc' | 'npc';
  readonly characterId: string | null;
  /** Hit points typed for a foe (or a character without HP on its sheet). */
  readonly hp: number | null;
  readonly hidden: boolean;
  /** A hidden foe shown to the players when its first turn starts (ADR 71), marked from the builder's line (ADR 73). */
  readonly revealWhenActs?: boolean;
  /** The initiative values, by the method's field keys. */
  readonly init: { readonly [key: string]: string | number };
  /** More of its numbers (a bestiary stat block's defences, damage...), put on the combatant as stats. */
  readonly extra?: { readonly [key: string]: Json };
  /** The bestiary entry it came from (kept in the GM's line-up and templates, never sent to the table). */
  readonly entryId?: string;
  /**
   * A character's sheet-read fields (OSR DEX, Edge Save) the GM typed for this fight. The others follow the
   * sheet as it is now (`withSheets`), so a line-up drafted before a sheet edit never shows the old number.
   */
  readonly typed?: readonly string[];
  /** A foe's Edge Save group (1-4) the GM picked (004 "Turn Order": the GM may regroup); absent: its type's group. */
  readonly edgeGroup?: number;
}

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

/**
 * "Goblin x6" (or "Goblin ×6", "6 Goblins" is not guessed) becomes Goblin 1 to
 * Goblin 6; a plain name is one combatant.
 */
export function expandGroup(text: string): Parsed<string[]> {
  const t = text.trim().replace(/\s+/g, ' ');
  if (t === '') return { ok: false, message: 'Type a name (add "x6" for six of them).' };
  const m = /^(.*?)\s*[x×*]\s*(\d+)$/i.exec(t);
  if (m === null || m[1] === '') return t.length > MAX_NAME ? { ok: false, message: `A name may have at most ${MAX_NAME} characters.` } : { ok: true, value: [t] };
  const base = m[1]!.trim();
  const n = Number(m[2]);
  if (n < 1 || n > MAX_GROUP) return { ok: false, message: `A group may have 1 to ${MAX_GROUP} foes; "${t}" asks for ${n}.` };
  if (base.length + 3 > MAX_NAME) return { ok: false, message: `A name may have at most ${MAX_NAME - 3} characters before the count.` };
  return { ok: true, value: n === 1 ? [base] : Array.from({ length: n }, (_, i) => `${base} ${i + 1}`) };
}

/** A field's value for one row: what the GM typed, else the sheet's, else the method's default. */
export function fieldValue(f: InitiativeField, kind: 'pc' | 'npc', typed: string | number | undefined, sheet?: { readonly [k: string]: Json }): Parsed<string | number> {
  const raw = typeof typed === 'string' ? typed.trim() : typed;
  if (raw === undefined || raw === '') {
    const fromSheet = f.fromSheet === true ? sheet?.[f.key] : undefined;
    if (f.type === 'int' && typeof fromSheet === 'number' && Number.isInteger(fromSheet)) return { ok: true, value: fromSheet };
    return { ok: true, value: f.defaultFor[kind] };
  }
  if (f.type === 'int') {
    const n = typeof raw === 'number' ? raw : Number(raw);
    const [min, max] = [f.min ?? -1000, f.max ?? 1000];
    if (!Number.isInteger(n) || n < min || n > max) return { ok: false, message: `${f.label} must be a whole number from ${min} to ${max}.` };
    return { ok: true, value: n };
  }
  const s = String(raw);
  if (f.type === 'choice' && !(f.choices ?? []).includes(s)) return { ok: false, message: `${f.label} must be one of ${(f.choices ?? []).map(words).join(', ')}.` };
  if (s.length > 64) return { ok: false, message: `${f.label} may have at most 64 characters.` };
  return { ok: true, value: s };
}

/** "very-fast" -> "very fast": choices are shown in words. */
export { words };

let counter = 0;
/** A fresh combatant id (kind and a counter, never the name). */
export function newId(kind: 'pc' | 'npc', now: number = Date.now()): string {
  counter = (counter + 1) % 1_000_000;
  return `${kind}-${now.toString(36)}-${counter}`;
}

export interface DraftInput {
  readonly name: string;
  readonly kind: 'pc' | 'npc';
  readonly character: Character | null;
  readonly hp: string;
  readonly hidden: boolean;
  readonly revealWhenActs?: boolean;
  readonly init: { readonly [key: string]: string };
}

/** The rows one "Add" makes (several for "Goblin x6"), or a sentence saying what to fix. */
export function draftsFrom(method: InitiativeMethod | null, input: DraftInput, makeId: (kind: 'pc' | 'npc') => string = (k) => newId(k)): Parsed<Draft[]> {
  const kind = input.character?.kind ?? input.kind;
  const names = input.name.trim() === '' && input.character ? ({ ok: true, value: [input.character.name] } as const) : expandGroup(input.name);
  if (!names.ok) return names;
  const hpText = input.hp.trim();
  const hp = hpText === '' ? null : Number(hpText);
  if (hp !== null && (!Number.isInteger(hp) || hp < 1 || hp > 10000)) return { ok: false, message: 'HP must be a whole number from 1 to 10000.' };
  const init: Record<string, string | number> = {};
  const typed: string[] = [];
  for (const f of method?.fields ?? []) {
    if (f.only !== undefined && f.only !== kind) continue;
    const raw = input.init[f.key];
    if (input.character !== null && f.fromSheet === true && raw !== undefined && raw.trim() !== '') typed.push(f.key);
    const v = fieldValue(f, kind, raw, input.character?.stats);
    if (!v.ok) return v;
    // A foe's creature type defaults to its name without the number ("Goblin 3" is a Goblin).
    init[f.key] = f.key === 'creatureType' && v.value === '' ? input.name.trim().replace(/\s*[x×*]\s*\d+$/i, '') : v.value;
  }
  return {
    ok: true,
    // A character's one combatant takes the character's id: the 36th Way and teams key sheets, positions and
    // the action economy by combatant, and a sheet made from the party form is keyed by the character.
    value: names.value.map((name) => ({ id: input.character !== null && names.value.length === 1 ? input.character.id : makeId(input.character ? 'pc' : kind), name, kind, characterId: input.character?.id ?? null, hp, hidden: input.hidden, ...(input.hidden && input.revealWhenActs === true ? { revealWhenActs: true } : {}), init, ...(typed.length > 0 ? { typed } : {}) })),
  };
}

/**
 * The party from the last encounter (or the table's PCs), ready for the next one: never start from nothing.
 * The last fight's choices carry over (a band, a team); a number the sheet holds (DEX, Edge Save) does not:
 * it is read from the sheet as it is now (review 11: "Kira PC · DEX 10" under a sheet that said 16).
 */
export function partyDrafts(method: InitiativeMethod | null, characters: readonly Character[], last: EncounterState | null, makeId: (kind: 'pc' | 'npc') => string = (k) => newId(k), dead: readonly string[] = []): Draft[] {
  const out: Draft[] = [];
  // The dead are left out of the next fight by default (the GM may still add one by hand).
  const pcs = characters.filter((c) => c.kind === 'pc' && !dead.includes(c.id));
  for (const ch of pcs) {
    const before: Combatant | undefined = last ? Object.values(last.combatants).find((c) => c.characterId === ch.id) : undefined;
    const typed: Record<string, string> = {};
    for (const f of method?.fields ?? []) {
      if (f.fromSheet === true) continue;
      const v = before?.stats[f.key];
      if (typeof v === 'string' || typeof v === 'number') typed[f.key] = String(v);
    }
    const d = draftsFrom(method, { name: '', kind: 'pc', character: ch, hp: '', hidden: false, init: typed }, makeId);
    if (d.ok) out.push(...d.value);
  }
  return out;
}

/**
 * The rows with each character's sheet-read fields (those the GM did not type) as its sheet says now: the
 * builder shows and starts with these, so a kept line-up follows sheet edits and keeps the GM's own entries.
 * A row that needs no change is the same object.
 */
export function withSheets(method: InitiativeMethod | null, rows: readonly Draft[], characters: { readonly [id: string]: Character }): Draft[] {
  const fields = (method?.fields ?? []).filter((f) => f.fromSheet === true);
  if (fields.length === 0) return [...rows];
  return rows.map((r) => {
    const ch = r.characterId !== null ? characters[r.characterId] : undefined;
    if (ch === undefined) return r;
    const init: Record<string, string | number> = { ...r.init };
    let changed = false;
    for (const f of fields) {
      if ((f.only !== undefined && f.only !== r.kind) || (r.typed ?? []).includes(f.key)) continue;
      const v = fieldValue(f, r.kind, undefined, ch.stats);
      if (v.ok && init[f.key] !== v.value) {
        init[f.key] = v.value;
        changed = true;
      }
    }
    return changed ? { ...r, init } : r;
  });
}

/** What the sheet says for a field the GM typed over ("the sheet says 16"), or null when it says nothing or the same. */
export function sheetSays(method: InitiativeMethod | null, row: Draft, key: string, characters: { readonly [id: string]: Character }): string | number | null {
  const f = method?.fields.find((x) => x.key === key);
  const ch = row.characterId !== null ? characters[row.characterId] : undefined;
  if (f?.fromSheet !== true || ch === undefined || !(row.typed ?? []).includes(key)) return null;
  const v = ch.stats[key];
  return (typeof v === 'number' || typeof v === 'string') && v !== row.init[key] ? v : null;
}

/**
 * The line-up once PCs joined the table while the builder was open (review
 * 10: an OSR fight from a bestiary group started without the party): the
 * newcomers come in after the PCs already lined up and before the foes, the
 * party first as `partyDrafts` lines it up. A PC already in the line-up stays once.
 */
export function joinParty(rows: readonly Draft[], newcomers: readonly Draft[]): Draft[] {
  const fresh = newcomers.filter((d) => d.characterId === null || !rows.some((r) => r.characterId === d.characterId));
  if (fresh.length === 0) return [...rows];
  const lastPc = rows.reduce((at, r, i) => (r.kind === 'pc' ? i : at), -1);
  return [...rows.slice(0, lastPc + 1), ...fresh, ...rows.slice(lastPc + 1)];
}

/** Rows with these drafts added: a character already lined up takes its new draft in its place (its initiative typed again). */
export function withDrafts(rows: readonly Draft[], drafts: readonly Draft[]): Draft[] {
  const again = new Map(drafts.filter((d) => d.characterId !== null && rows.some((r) => r.characterId === d.characterId)).map((d) => [d.characterId, d]));
  return [...rows.map((r) => (r.characterId !== null && again.has(r.characterId) ? { ...again.get(r.characterId)!, id: r.id } : r)), ...drafts.filter((d) => !again.has(d.characterId))];
}

export interface StartOptions {
  /** Teams: the team that starts the fight (003: the initiating team). */
  readonly initiating?: string;
  /** Roll the order again each round, where the method offers it (ADR 73); absent = the table's setting. */
  readonly rerollEachRound?: boolean;
  /** Foes share one initiative per type or per side, where the method offers it (ADR 73). */
  readonly groupInitiative?: 'each' | 'type' | 'side';
}

/** The encounter options asked for that this method offers, as encounter.start params (never one it does not). */
export function optionParams(method: InitiativeMethod | null, opts: StartOptions): { [k: string]: Json } {
  const out: { [k: string]: Json } = {};
  if (method?.reroll.setting != null && opts.rerollEachRound !== undefined) out['rerollEachRound'] = opts.rerollEachRound;
  const g = opts.groupInitiative;
  if (g !== undefined && g !== 'each' && method !== null && method.groupBy.modes.includes(g)) out['groupInitiative'] = g;
  return out;
}

/** Teams present, in the order they were first added. */
export function teamsOf(drafts: readonly Draft[]): string[] {
  return [...new Set(drafts.map((d) => String(d.init['team'] ?? '')).filter((t) => t !== ''))];
}

/** 004 "Turn Order": the GM regroups the NPCs into two to four groups. */
export const MAX_EDGE_GROUPS = 4;

/**
 * Foes grouped by creature type for the Edge Save order (004 asks for 2-4
 * groups): best Edge Save first. One type with several foes is split in two,
 * past four the slowest groups merge into the fourth.
 */
export function typeGroups(drafts: readonly Draft[]): string[][] {
  const npcs = drafts.filter((d) => d.kind === 'npc');
  const byType = new Map<string, Draft[]>();
  for (const d of npcs) {
    const t = String(d.init['creatureType'] ?? '') || d.name;
    byType.set(t, [...(byType.get(t) ?? []), d]);
  }
  const edge = (d: Draft): number => Number(d.init['edgeSave'] ?? 0);
  let groups = [...byType.values()].map((g) => [...g].sort((a, b) => edge(b) - edge(a))).sort((a, b) => edge(b[0]!) - edge(a[0]!));
  if (groups.length === 1 && groups[0]!.length >= 2) {
    const g = groups[0]!;
    const half = Math.ceil(g.length / 2);
    groups = [g.slice(0, half), g.slice(half)];
  }
  if (groups.length > MAX_EDGE_GROUPS) groups = [...groups.slice(0, MAX_EDGE_GROUPS - 1), groups.slice(MAX_EDGE_GROUPS - 1).flat()];
  return groups.map((g) => g.map((d) => d.id));
}

/**
 * The Edge Save groups the start sends, in order: each foe in the group the GM picked for it, the others where
 * their type puts them (group N of typeGroups); groups left empty drop out, the rest keep their order.
 */
export function edgeGroups(drafts: readonly Draft[]): string[][] {
  const auto = typeGroups(drafts);
  const picked = new Map(drafts.flatMap((d) => (d.kind === 'npc' && d.edgeGroup !== undefined ? [[d.id, d.edgeGroup] as const] : [])));
  if (picked.size === 0) return auto;
  const slots: string[][] = Array.from({ length: MAX_EDGE_GROUPS }, () => []);
  auto.forEach((g, i) => g.forEach((id) => slots[(picked.get(id) ?? i + 1) - 1]!.push(id)));
  return slots.filter((g) => g.length > 0);
}

/** A foe's group number by its type alone (1-4), as the builder shows it before any pick; null for a PC. */
export function typeGroupOf(drafts: readonly Draft[], id: string): number | null {
  const i = typeGroups(drafts).findIndex((g) => g.includes(id));
  return i < 0 ? null : i + 1;
}

/** The refusal of an Edge Save start whose foes were all put in one group. */
export const TWO_GROUPS = 'Put the foes in at least two Edge Save groups: 004 "Turn Order" asks for two to four.';

/** The refusal of a teams start with no first team chosen (003 "Initiative and Rounds"). */
export const WHO_STARTS = 'Choose who starts the fight: the team of whoever began it (an attack, an ambush) goes first, then the team it set upon.';

/** The encounter.start command for these rows: the ruleset's turn order does the rest. */
export function startCommand(method: InitiativeMethod | null, drafts: readonly Draft[], characters: { readonly [id: string]: Character }, opts: StartOptions = {}): Parsed<{ type: 'encounter.start'; combatants: Json[]; params?: Json }> {
  if (drafts.length === 0) return { ok: false, message: 'Add the party and at least one foe first.' };
  if (drafts.length > 200) return { ok: false, message: 'An encounter may have at most 200 combatants.' };
  const combatants = combatantsOf(method, drafts, characters);
  if (method?.order === 'teams') {
    const teams = teamsOf(drafts);
    // 003 "Initiative and Rounds" names no default: the team of whoever began the fight goes first, so the GM says which.
    const first = opts.initiating !== undefined && teams.includes(opts.initiating) ? opts.initiating : teams.length === 1 ? teams[0] : undefined;
    if (first === undefined) return { ok: false, message: WHO_STARTS };
    return { ok: true, value: { type: 'encounter.start', combatants, params: { teamOrder: [first, ...teams.filter((t) => t !== first)] } } };
  }
  const extra = optionParams(method, opts);
  if (method?.order === 'edge-save') {
    const groups = edgeGroups(drafts);
    if (groups.length < Math.min(2, groups.flat().length)) return { ok: false, message: TWO_GROUPS };
    const params = { ...(groups.length > 0 ? { groups } : {}), ...extra };
    return { ok: true, value: { type: 'encounter.start', combatants, ...(Object.keys(params).length > 0 ? { params } : {}) } };
  }
  return { ok: true, value: { type: 'encounter.start', combatants, ...(Object.keys(extra).length > 0 ? { params: extra } : {}) } };
}

/** The side a row fights on: its team where the order is by team, else the party's or the foes'. */
export function sideOf(method: InitiativeMethod | null, d: Draft): string {
  const team = method?.order === 'teams' ? String(d.init['team'] ?? '') : '';
  return team !== '' ? team : d.kind === 'pc' ? 'pcs' : 'npcs';
}

/** The line-up's rows as encounter combatants (a team's name as its side). */
function combatantsOf(method: InitiativeMethod | null, drafts: readonly Draft[], characters: { readonly [id: string]: Character }): Json[] {
  return drafts.map((d): Json => {
    const ch = d.characterId !== null ? characters[d.characterId] : undefined;
    // A character keeps its hit points on its sheet; typed HP lands on the combatant only when the sheet has none.
    const hpHere = d.hp !== null && typeof ch?.stats['hp'] !== 'number';
    const stats: Record<string, Json> = { ...(d.extra ?? {}), ...d.init, ...(hpHere ? { hp: d.hp, maxHp: d.hp } : {}) };
    const team = method?.order === 'teams' ? String(d.init['team'] ?? '') : '';
    return {
      id: d.id,
      name: d.name,
      kind: d.kind,
      side: sideOf(method, d),
      stats,
      visibility: d.hidden ? 'hidden' : 'visible',
      ...(d.characterId !== null ? { characterId: d.characterId } : {}),
      ...(team !== '' ? { team } : {}),
    };
  });
}

/** What the GM may change on a running combatant's place, and the encounter.place command for it. */
export function adjustField(method: InitiativeMethod | null): InitiativeField | null {
  if (method === null) return null;
  if (method.order === 'score') return { ...method.fields[0]!, key: 'score', label: 'Initiative' };
  if (method.order === 'bands') return method.fields[0]!;
  return null;
}

export function placeCommand(method: InitiativeMethod | null, id: string, value: string): Parsed<{ type: 'encounter.place'; characterId: string; placement: Json }> {
  const f = adjustField(method);
  if (f === null) return { ok: false, message: 'This turn order is not adjusted by hand.' };
  const v = fieldValue({ ...f, min: -1000, max: 1000 }, 'pc', value);
  if (!v.ok) return v;
  return { ok: true, value: { type: 'encounter.place', characterId: id, placement: { [f.key]: v.value } } };
}

/**
 * encounter.add commands for rows added mid-fight (one per combatant, each its
 * own undo step). A foe joining an Edge Save order goes into the group of its
 * creature type, or the last group (004 groups are fixed at the start).
 */
export function addCommands(method: InitiativeMethod | null, drafts: readonly Draft[], enc: EncounterState, characters: { readonly [id: string]: Character }): { type: 'encounter.add'; [k: string]: Json }[] {
  if (drafts.length === 0) return [];
  const groups = method?.order === 'edge-save' ? groupsIn(enc) : [];
  return combatantsOf(method, drafts, characters).map((c, i): { type: 'encounter.add'; [k: string]: Json } => {
    const d = drafts[i]!;
    if (method?.order !== 'edge-save' || d.kind !== 'npc') return { type: 'encounter.add' as const, combatant: c };
    const type = String(d.init['creatureType'] ?? '');
    const same = groups.findIndex((g) => g.some((id) => enc.combatants[id]?.stats['creatureType'] === type));
    return { type: 'encounter.add' as const, combatant: c, placement: { group: same >= 0 ? same : Math.max(0, groups.length - 1) } };
  });
}

function groupsIn(enc: EncounterState): string[][] {
  const seq = enc.seq;
  const g = seq !== null && typeof seq === 'object' && !Array.isArray(seq) ? seq['groups'] : undefined;
  return Array.isArray(g) ? g.map((x) => (Array.isArray(x) ? x.filter((y): y is string => typeof y === 'string') : [])) : [];
}
