// A batch's later command naming what an earlier one in the same batch made
// (ADR 73): "add a character, then set its sheet" is one click and one undo
// step, but the character's id is minted by the engine, so the client cannot
// write it. It writes a reference instead, resolved just before that command
// is decided, from the events the earlier command decided.
import { err, ErrorCode, ok } from './result.js';
import type { Command, EngineEvent, Json, Result } from './types.js';

/** The key of a reference object: `{ "$made": { "command": 0, "event": "character.added", "path": "id" } }`. */
export const MADE = '$made';

export interface MadeRef {
  /** Index of an earlier command in the same batch. */
  readonly command: number;
  /** The event type to read (its first of that type); omitted = the command's first event. */
  readonly event?: string;
  /** Dotted path inside that event; numbers index lists ("combatants.2.id"). */
  readonly path: string;
}

const isObj = (v: Json | undefined): v is { readonly [k: string]: Json } => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The reference this value is, or null when it is plain data. Only an object with the one key `$made` is one. */
function refOf(v: Json): Json | null {
  return isObj(v) && Object.keys(v).length === 1 && Object.hasOwn(v, MADE) ? v[MADE]! : null;
}

function at(v: Json | undefined, path: string): Json | undefined {
  let cur = v;
  for (const k of path.split('.')) {
    if (Array.isArray(cur) && /^\d+$/.test(k)) cur = cur[Number(k)];
    else if (isObj(cur) && Object.hasOwn(cur, k)) cur = cur[k];
    else return undefined;
  }
  return cur;
}

/**
 * `part` (command `index` of a batch) with every reference replaced by the value it names in the events
 * `decided[c]` of an earlier command `c`; a reference that names nothing refuses the batch in words, at its place.
 */
export function resolveMade(part: Command, index: number, decided: readonly (readonly EngineEvent[])[]): Result<Command> {
  let failure: { readonly message: string; readonly path: string } | null = null;
  const walk = (v: Json, where: string): Json => {
    if (failure !== null) return v;
    const r = refOf(v);
    if (r !== null) {
      const c = isObj(r) ? r['command'] : undefined;
      const type = isObj(r) ? r['event'] : undefined;
      const path = isObj(r) ? r['path'] : undefined;
      if (typeof c !== 'number' || !Number.isInteger(c) || c < 0 || c >= index || typeof path !== 'string' || (type !== undefined && typeof type !== 'string')) {
        failure = { message: `a reference to what an earlier command made needs { command: 0-${index - 1}, path, event? }, naming a command before this one`, path: where };
        return v;
      }
      const events = decided[c] ?? [];
      const event = type === undefined ? events[0] : events.find((e) => e.type === type);
      const value = at(event as unknown as Json | undefined, path);
      if (value === undefined) {
        failure = { message: `command ${c + 1} of this batch made no ${type ?? 'event'} with "${path}" to refer to`, path: where };
        return v;
      }
      return value;
    }
    if (Array.isArray(v)) return v.map((x, i) => walk(x, `${where}.${i}`));
    if (isObj(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, `${where}.${k}`)]));
    return v;
  };
  const out = walk(part as unknown as Json, `commands.${index}`);
  if (failure !== null) {
    const f: { readonly message: string; readonly path: string } = failure;
    return err(ErrorCode.INVALID_VALUE, f.message, f.path);
  }
  return ok(out as unknown as Command);
}
