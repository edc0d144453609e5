// What undo and redo take back, in words with the creatures' names ("Bram's
// attack on Goblin 2", "end of Kira's turn"), from the command and its events
// as stored. The names come from the world as the asking viewer sees it: a
// creature they may not see has no name here, and the sentence falls back to
// the command's plain label (no hidden foe's name ever reaches a player).
import type { Command, EngineEvent, Json } from './types.js';

/**
 * A command's undo words: templates tried in order, the first whose every
 * blank fills wins. `{by}` and `{on}` name the creatures in the fields listed
 * under `by` and `on` (the command's first, else its events'); `{=field}` is
 * the command's own value (a number, a condition), in words.
 */
export interface CommandWords {
  readonly say: readonly string[];
  /** Fields naming who acts (an id), first present wins: "attackerId", "id". */
  readonly by?: readonly string[];
  /** Fields naming who it is done to (an id or a list of ids): "targetId", "targetIds". */
  readonly on?: readonly string[];
}

/** Names a creature the viewer may see, or null. */
export type NameOf = (id: string) => string | null;

const MAX_NAMED = 3;

/** "Goblin 1", "Goblin 1 and Goblin 2", "Goblin 1, Goblin 2 and 3 more". */
function list(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  if (names.length <= MAX_NAMED) return `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
  return `${names.slice(0, MAX_NAMED - 1).join(', ')} and ${names.length - (MAX_NAMED - 1)} more`;
}

/** `path` ("combatant.name") inside `o`. */
function at(o: Json | undefined, path: readonly string[]): Json | undefined {
  let v = o;
  for (const k of path) {
    if (v === null || typeof v !== 'object' || Array.isArray(v) || !Object.hasOwn(v, k)) return undefined;
    v = (v as { readonly [k: string]: Json })[k];
  }
  return v;
}

/**
 * A field's value: "targetId" from the command, else from its first event holding it; "encounter.turnStarted:id"
 * from that event type only (an advance also skips the fallen); dots reach inside ("combatant.name").
 */
function valueOf(command: Command, events: readonly EngineEvent[], field: string): Json | undefined {
  const colon = field.lastIndexOf(':');
  const type = colon < 0 ? null : field.slice(0, colon);
  const path = field.slice(colon + 1).split('.');
  if (type === null) {
    const v = at(command as unknown as Json, path);
    if (v !== undefined) return v;
  }
  for (const e of events) {
    if (type !== null && e.type !== type) continue;
    const v = at(e as unknown as Json, path);
    if (v !== undefined) return v;
  }
  return undefined;
}

/** The names behind the first of `fields` present, or null when one of them is not the viewer's to name. */
function names(command: Command, events: readonly EngineEvent[], fields: readonly string[], nameOf: NameOf): string | null {
  for (const f of fields) {
    const v = valueOf(command, events, f);
    if (v === undefined || v === null) continue;
    const ids = (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string');
    if (ids.length === 0) continue;
    const named = ids.map(nameOf);
    if (named.some((n) => n === null)) return null;
    return list(named as string[]);
  }
  return null;
}

/** A command's value as words: "custom:Dazed" reads "Dazed", "offBalance" "off balance". */
function shown(v: Json | undefined): string | null {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v !== 'string' || v.trim() === '') return null;
  // A rules id ("offBalance", "hard-cover") reads as words; a name as typed ("Goblin 3") stays.
  const t = v.startsWith('custom:') ? v.slice(7) : /^[a-z][A-Za-z0-9-]*$/.test(v) ? v.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/-/g, ' ').toLowerCase() : v;
  return t.trim() === '' ? null : t.trim();
}

/** The first template of `words` whose blanks all fill, or null. */
export function sayCommand(words: CommandWords, command: Command, events: readonly EngineEvent[], nameOf: NameOf): string | null {
  const by = words.by === undefined ? null : names(command, events, words.by, nameOf);
  const on = words.on === undefined ? null : names(command, events, words.on, nameOf);
  for (const t of words.say) {
    let ok = true;
    const said = t.replace(/\{(by|on|=[A-Za-z.:]+)\}/g, (_m, key: string) => {
      const v = key === 'by' ? by : key === 'on' ? on : shown(valueOf(command, events, key.slice(1)));
      if (v === null) ok = false;
      return v ?? '';
    });
    if (ok) return said;
  }
  return null;
}
