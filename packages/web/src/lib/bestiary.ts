// The bestiary panel's pure part (issue 20): the GM's stat blocks and
// encounter templates as the GM's view holds them (the engine's bestiaryIn; a player's
// view never has it), foes made from a stat block ("Goblin" x6), line-ups
// turned into templates and back, and the bestiary file's format with
// named errors. The server checks every field again on save and import.
import { bestiaryIn, type BestiaryEntry, type Character, type Combatant, type EncounterState, type EncounterTemplate, type Json, type TemplateLine, type World } from '@tablekeeper/engine';
import { draftsFrom, type Draft, type InitiativeMethod, type Parsed } from './initiative.ts';
import { rulesetTitleOf, statBlockLabel, statBlockValue } from '@tablekeeper/rulesets/browser';

export const FILE_FORMAT = 'tablekeeper-bestiary';
export const FILE_VERSION = 1;
/** A bestiary file may hold this many stat blocks (the server's import limit). */
export const MAX_FILE_ENTRIES = 100;
/** Bigger files are refused before parsing. */
export const MAX_FILE_BYTES = 512 * 1024;
const MAX_NAME = 80;
const MAX_NOTES = 1000;

type Obj = { readonly [k: string]: Json };
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The stat blocks, by name. */
export function entriesOf(world: World): BestiaryEntry[] {
  return Object.values(bestiaryIn(world).entries)
    .filter(isObj)
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

/** The encounter templates, by name. */
export function templatesOf(world: World): EncounterTemplate[] {
  return Object.values(bestiaryIn(world).templates)
    .filter(isObj)
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

/** "HP 7 · DEX 14 · Damage 1d6": a stat block in one line, each number under its rule text's name and each choice in its picker's words (review 10). */
export function blockLine(block: Obj, rulesetId: string): string {
  return Object.entries(block)
    .map(([k, v]) => (k === 'moves' && Array.isArray(v) ? movesLine(v) : k === 'abilities' && Array.isArray(v) ? abilitiesLine(v) : v === true ? statBlockLabel(rulesetId, k) : v === false ? null : `${statBlockLabel(rulesetId, k)} ${statBlockValue(rulesetId, k, String(v))}`))
    .filter((x): x is string => x !== null)
    .join(' · ');
}

/** "Moves: Ambush (countdown 3, loop), Howl": a Daggerheart block's moves in words. */
function movesLine(moves: readonly Json[]): string | null {
  const words = moves.filter(isObj).map((m) => {
    const cd = isObj(m['countdown']) ? m['countdown'] : null;
    return `${String(m['name'])}${cd !== null ? ` (countdown ${String(cd['start'])}${cd['repeat'] === 'loop' ? ', loop' : ''})` : ''}`;
  });
  return words.length === 0 ? null : `Moves: ${words.join(', ')}`;
}

/** "Abilities: Fire Breath (recharge 11+), Scale Ward (encounter, sustain 11+)": a 36th Way block's abilities with their frequency and sustain. */
function abilitiesLine(list: readonly Json[]): string | null {
  const words = list.filter(isObj).map((a) => {
    const f = a['frequency'];
    const freq = typeof f === 'string' ? f : isObj(f) && typeof f['target'] === 'number' ? `recharge ${f['target']}+` : 'at-will';
    const sustain = typeof a['sustain'] === 'number' ? `, sustain ${a['sustain']}+` : '';
    return `${typeof a['name'] === 'string' && a['name'] !== '' ? a['name'] : String(a['id'] ?? 'ability')} (${freq}${sustain})`;
  });
  return words.length === 0 ? null : `Abilities: ${words.join(', ')}`;
}

/**
 * The builder rows for `count` of this stat block: Goblin 1 to Goblin N (one
 * plain Goblin for a count of 1). Hit points and the initiative fields come
 * from the block; its other numbers ride along as the combatants' stats.
 */
export function draftsFromEntry(method: InitiativeMethod | null, entry: BestiaryEntry, count: number, hidden: boolean, makeId?: (kind: 'pc' | 'npc') => string, taken: readonly string[] = []): Parsed<Draft[]> {
  if (!Number.isInteger(count) || count < 1 || count > 50) return { ok: false, message: 'Add 1 to 50 at a time.' };
  const init: Record<string, string> = {};
  const extra: Record<string, Json> = {};
  for (const [k, v] of Object.entries(entry.block)) {
    if (k === 'hp') continue;
    if (method?.fields.some((f) => f.key === k)) init[k] = String(v);
    else extra[k] = v;
  }
  const hp = typeof entry.block['hp'] === 'number' ? String(entry.block['hp']) : '';
  const d = draftsFrom(method, { name: count === 1 ? entry.name : `${entry.name} x${count}`, kind: 'npc', character: null, hp, hidden, init }, makeId);
  if (!d.ok) return d;
  // More of a kind already lined up (or fighting) go on counting: Goblin 7, 8 after Goblin 1-6; a lone plain
  // "Goblin" counts as Goblin 1, so the next is Goblin 2 (review 6: "Goblin" beside a new "Goblin 1").
  const after = numberAfter(entry.name, taken);
  const from = after === null ? null : Math.max(after, 1);
  const renamed = from === null ? d.value : d.value.map((x, i) => ({ ...x, name: `${entry.name} ${from + i + 1}` }));
  // A foe's creature type defaults to the stat block's name, not "Goblin x6".
  return { ok: true, value: renamed.map((x) => ({ ...x, extra, entryId: entry.id, init: x.init['creatureType'] === `${entry.name} x${count}` ? { ...x.init, creatureType: entry.name } : x.init })) };
}

/**
 * The new name of a plain "<name>" already lined up once more of its kind join
 * ("Goblin" becomes "Goblin 1" beside Goblin 2, 3), or null where there is
 * none to rename (or a "<name> 1" already exists).
 */
export function renumberedPlain(name: string, taken: readonly string[]): string | null {
  return taken.includes(name) && !taken.includes(`${name} 1`) ? `${name} 1` : null;
}

/** The highest N of "<name> N" among `taken` (0 for a plain "<name>"), or null when the name is not taken. */
export function numberAfter(name: string, taken: readonly string[]): number | null {
  let best: number | null = null;
  for (const t of taken) {
    if (t === name) best = Math.max(best ?? 0, 0);
    else if (t.startsWith(`${name} `) && /^\d{1,4}$/.test(t.slice(name.length + 1))) best = Math.max(best ?? 0, Number(t.slice(name.length + 1)));
  }
  return best;
}

const same = (a: Omit<TemplateLine, 'name' | 'count'>, b: Omit<TemplateLine, 'name' | 'count'>): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * A line-up (builder rows) as template lines; "Goblin 1".."Goblin 6" with the same numbers become one line of 6.
 * A character's sheet-read numbers (OSR DEX, Edge Save) are not kept unless the GM typed them: the sheet is read
 * again when the template is used (review 13 #10: a saved DEX 10 came back over a sheet that said 16).
 */
export function linesFromDrafts(drafts: readonly Draft[], method: InitiativeMethod | null = null): TemplateLine[] {
  const out: TemplateLine[] = [];
  for (const d of drafts) {
    const init: Record<string, string | number> = { ...d.init };
    if (d.characterId !== null) for (const f of method?.fields ?? []) if (f.fromSheet === true && !(d.typed ?? []).includes(f.key)) delete init[f.key];
    const rest: Omit<TemplateLine, 'name' | 'count'> = {
      kind: d.kind,
      hidden: d.hidden,
      ...(d.characterId !== null ? { characterId: d.characterId } : {}),
      ...(d.entryId !== undefined ? { entryId: d.entryId } : {}),
      ...(d.hp !== null ? { hp: d.hp } : {}),
      ...(Object.keys(init).length > 0 ? { init } : {}),
    };
    const m = /^(.*) (\d+)$/.exec(d.name);
    const last = out.at(-1);
    if (m !== null && last !== undefined && last.name === m[1] && Number(m[2]) === last.count + 1 && d.characterId === null) {
      const { name: _n, count: _c, ...lastRest } = last;
      if (same(lastRest, rest)) {
        out[out.length - 1] = { ...last, count: last.count + 1 };
        continue;
      }
    }
    out.push({ name: m !== null && m[2] === '1' && d.characterId === null ? m[1]! : d.name, count: 1, ...rest });
  }
  return out;
}

/**
 * A running (or ended) encounter's line-up as template lines, in turn order.
 * A foe named after a stat block ("Goblin 3" and the entry "Goblin") is
 * linked to it again: combatants carry no bestiary ids, players see them.
 */
export function linesFromEncounter(method: InitiativeMethod | null, combatants: readonly Combatant[], entries: readonly BestiaryEntry[] = []): TemplateLine[] {
  const drafts: Draft[] = combatants.map((c) => {
    const init: Record<string, string | number> = {};
    for (const f of method?.fields ?? []) {
      const v = c.stats[f.key];
      if (typeof v === 'string' || typeof v === 'number') init[f.key] = v;
    }
    const hp = c.stats['maxHp'] ?? c.stats['hp'];
    const base = c.name.replace(/ \d{1,4}$/, '');
    const entry = c.characterId === null ? entries.find((e) => e.name === base) : undefined;
    return {
      id: c.id,
      name: c.name,
      kind: c.kind,
      characterId: c.characterId,
      hp: typeof hp === 'number' && Number.isInteger(hp) && hp >= 1 && hp <= 10000 && c.characterId === null ? hp : null,
      hidden: c.visibility === 'hidden',
      init,
      ...(entry !== undefined ? { entryId: entry.id } : {}),
    };
  });
  return linesFromDrafts(drafts, method);
}

/** The builder rows a template makes; lines for characters no longer at the table are left out and named. */
export function draftsFromTemplate(
  method: InitiativeMethod | null,
  template: EncounterTemplate,
  world: Pick<World, 'characters' | 'ext'>,
  makeId?: (kind: 'pc' | 'npc') => string,
): { drafts: Draft[]; skipped: string[] } {
  const drafts: Draft[] = [];
  const skipped: string[] = [];
  const entries = bestiaryIn(world as World).entries;
  for (const line of template.lines) {
    const character: Character | null = line.characterId !== undefined ? (Object.hasOwn(world.characters, line.characterId) ? world.characters[line.characterId]! : null) : null;
    if (line.characterId !== undefined && character === null) {
      skipped.push(line.name);
      continue;
    }
    const init: Record<string, string> = {};
    // A character's sheet wins over a number the template kept for it (older templates kept the builder's DEX whole):
    // the fight reads the sheet as it is now, and nothing says "typed here" for a number nobody typed (review 13 #10).
    const onSheet = (k: string): boolean => character !== null && method?.fields.some((f) => f.key === k && f.fromSheet === true) === true && character.stats[k] !== undefined;
    for (const [k, v] of Object.entries(line.init ?? {})) if (!onSheet(k)) init[k] = String(v);
    const d = draftsFrom(method, { name: character !== null ? '' : line.count === 1 ? line.name : `${line.name} x${line.count}`, kind: line.kind, character, hp: line.hp === undefined ? '' : String(line.hp), hidden: line.hidden, init }, makeId);
    if (!d.ok) {
      skipped.push(line.name);
      continue;
    }
    // Foes from a stat block still in the bestiary bring its other numbers again.
    const entry = line.entryId !== undefined && Object.hasOwn(entries, line.entryId) ? entries[line.entryId]! : null;
    const extra: Record<string, Json> = {};
    if (entry !== null) for (const [k, v] of Object.entries(entry.block)) if (k !== 'hp' && !method?.fields.some((f) => f.key === k)) extra[k] = v;
    drafts.push(...d.value.map((x) => (entry !== null ? { ...x, extra, entryId: entry.id } : x)));
  }
  return { drafts, skipped };
}

/** One stat block as the file and the import command carry it. */
export interface FileEntry {
  readonly name: string;
  readonly notes?: string;
  readonly block: Obj;
}

/** The bestiary file's text: the stat blocks without the table's ids. */
export function exportText(world: World): string {
  const entries: FileEntry[] = entriesOf(world).map((e) => ({ name: e.name, ...(e.notes !== '' ? { notes: e.notes } : {}), block: e.block }));
  return JSON.stringify({ format: FILE_FORMAT, version: FILE_VERSION, rulesetId: world.rulesetId, entries }, null, 2);
}

/**
 * A bestiary file read back: its stat blocks, or every problem found, each
 * naming the entry ("Stat block 3 (Goblin): ...") so the GM can fix the file.
 * The fields of each block are the server's to judge (its path is shown).
 */
export function parseBestiaryFile(text: string, rulesetId: string): { ok: true; entries: FileEntry[] } | { ok: false; errors: string[] } {
  if (text.length > MAX_FILE_BYTES) return { ok: false, errors: [`The file is larger than ${MAX_FILE_BYTES / 1024} KB; a bestiary file is much smaller.`] };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, errors: ['The file is not a bestiary file: it is not JSON text.'] };
  }
  if (!isObj(data) || data['format'] !== FILE_FORMAT) return { ok: false, errors: ['The file is not a bestiary file (Export bestiary makes one).'] };
  if (data['version'] !== FILE_VERSION) return { ok: false, errors: [`The file is version ${String(data['version'])}; this app reads version ${FILE_VERSION}.`] };
  // The rules by their names, never the ids (review 13 #15).
  if (data['rulesetId'] !== rulesetId) return { ok: false, errors: [`The file holds stat blocks for ${typeof data['rulesetId'] === 'string' ? rulesetTitleOf(data['rulesetId']) : 'no rules it names'}; this table plays ${rulesetTitleOf(rulesetId)}.`] };
  const list = data['entries'];
  if (!Array.isArray(list) || list.length === 0) return { ok: false, errors: ['The file holds no stat blocks.'] };
  if (list.length > MAX_FILE_ENTRIES) return { ok: false, errors: [`The file holds ${list.length} stat blocks; import at most ${MAX_FILE_ENTRIES} at a time.`] };
  const errors: string[] = [];
  const entries: FileEntry[] = [];
  list.forEach((e: unknown, i) => {
    const name = isObj(e) && typeof e['name'] === 'string' ? e['name'].trim() : '';
    const where = `Stat block ${i + 1}${name !== '' ? ` (${name.slice(0, 40)})` : ''}`;
    if (!isObj(e)) return void errors.push(`${where} is not an object.`);
    if (name === '' || name.length > MAX_NAME) errors.push(`${where}: the name must be 1 to ${MAX_NAME} characters.`);
    const notes = e['notes'];
    if (notes !== undefined && (typeof notes !== 'string' || notes.length > MAX_NOTES)) errors.push(`${where}: the notes must be text of at most ${MAX_NOTES} characters.`);
    if (!isObj(e['block'])) errors.push(`${where}: the stat block (block) must be an object of its numbers.`);
    const extra = Object.keys(e).filter((k) => !['name', 'notes', 'block'].includes(k));
    if (extra.length > 0) errors.push(`${where}: unknown field${extra.length === 1 ? '' : 's'} ${extra.join(', ')}.`);
    if (errors.length === 0) entries.push({ name, ...(typeof notes === 'string' && notes !== '' ? { notes } : {}), block: e['block'] as Obj });
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, entries };
}

/** The starters not yet in the bestiary, by name (a second press adds nothing twice). */
export function missingStarters(starters: readonly FileEntry[], entries: readonly BestiaryEntry[]): FileEntry[] {
  const have = new Set(entries.map((e) => e.name));
  return starters.filter((s) => !have.has(s.name));
}

/** The server's path in a refused import ("entries.2.block.hp") in words: "Stat block 3 (Goblin), hp". */
export function importPathWords(path: string | undefined, entries: readonly FileEntry[]): string {
  const m = /^entries\.(\d+)(?:\.(?:block\.)?(.+))?$/.exec(path ?? '');
  if (m === null) return '';
  const i = Number(m[1]);
  const name = entries[i]?.name;
  return `Stat block ${i + 1}${name !== undefined ? ` (${name})` : ''}${m[2] !== undefined ? `, ${m[2]}` : ''}`;
}

/** The lines of a template in a few words: "Ann, Bo, Goblin ×6". */
export function templateLine(t: EncounterTemplate): string {
  return t.lines.map((l) => (l.count > 1 ? `${l.name} ×${l.count}` : l.name)).join(', ');
}

/** Whether the encounter has anything to save as a template. */
export function hasLineUp(enc: EncounterState | null): enc is EncounterState {
  return enc !== null && enc.roster.length > 0;
}

/** The fields `daggerheart.addAdversaries` needs that a stat block may leave out, in the words of its form. */
const ADVERSARY_NEEDS: readonly [string, string][] = [
  ['difficulty', 'difficulty'],
  ['major', 'major threshold'],
  ['severe', 'severe threshold'],
  ['hp', 'hit points'],
];
const ADVERSARY_NUMBERS = ['difficulty', 'major', 'severe', 'hp', 'stress', 'attack'] as const;
/** daggerheart.addAdversaries adds at most this many at once (its MAX_GROUP). */
export const MAX_ADVERSARY_GROUP = 20;

/**
 * Daggerheart's adversaries come in through its own command (they are
 * characters with thresholds, not tracker rows): `count` of a stat block,
 * hidden from the players, or shown by name as every other ruleset's unhidden
 * foes are (review 6: "Unknown" for an unticked box); their numbers still follow
 * the table's foe reveal. A block missing a number the command needs is named,
 * so the GM knows what to edit.
 */
export function adversariesCommand(entry: BestiaryEntry, count: number, hidden: boolean): Parsed<{ type: 'daggerheart.addAdversaries'; [k: string]: Json }> {
  if (!Number.isInteger(count) || count < 1 || count > MAX_ADVERSARY_GROUP) return { ok: false, message: `Add 1 to ${MAX_ADVERSARY_GROUP} adversaries at a time.` };
  const missing = ADVERSARY_NEEDS.filter(([k]) => typeof entry.block[k] !== 'number').map(([, words]) => words);
  if (missing.length > 0) return { ok: false, message: `${entry.name} needs its ${missing.length === 1 ? missing[0]! : `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)!}`} before it can fight: press Edit and fill them in.` };
  const command: { type: 'daggerheart.addAdversaries'; [k: string]: Json } = { type: 'daggerheart.addAdversaries', name: entry.name, count };
  for (const k of ADVERSARY_NUMBERS) if (typeof entry.block[k] === 'number') command[k] = entry.block[k];
  if (typeof entry.block['damage'] === 'string' && entry.block['damage'] !== '') command['damage'] = entry.block['damage'];
  // The block's moves come along: each move's countdown starts for the group (hidden, on the GM's screen).
  if (Array.isArray(entry.block['moves']) && entry.block['moves'].length > 0) command['moves'] = entry.block['moves'];
  command['visibility'] = hidden ? 'hidden' : 'visible';
  return { ok: true, value: command };
}
