// Small helpers shared by the ruleset's reducers: names for log sentences,
// log entries with the event's audience, and reducers over the ruleset state.
import type { EngineEvent, Json, Reducer, World } from '@tablekeeper/engine';
import { appendLog, getEncounter, isFoeCharacter, own } from '@tablekeeper/engine';
import { eventAudience } from './context.js';
import { getTsw, setTsw, type TswState } from './state.js';
import type { TswEvent } from './events.js';

/** A sheet's or combatant's name for a log sentence. */
export function name(w: World, id: Json | undefined): string {
  return typeof id === 'string' ? (own(getTsw(w).sheets, id)?.name ?? own(getEncounter(w).combatants, id)?.name ?? id) : 'someone';
}

/** Append a log entry readable by whoever may see event `e`. */
export function log(w: World, e: TswEvent, kind: string, text: string, data?: Json, shown?: string): World {
  return appendLog(w, { audience: eventAudience(w, e), kind, text, ...(shown === undefined ? {} : { shown }), ...(data === undefined ? {} : { data }) });
}

/** A foe: anything but a PC's sheet or a PC combatant (an enemy's sheet, or one since removed). Its HP are the GM's (ADR 33). */
export function isFoe(w: World, id: Json | undefined): boolean {
  if (typeof id !== 'string') return true;
  const s = own(getTsw(w).sheets, id);
  // A sheet a player's character plays (a PC, or a seat's own retainer) is theirs to read.
  if (s !== undefined) return s.kind !== 'pc' && (s.characterId === null || own(w.characters, s.characterId) === undefined || isFoeCharacter(w, s.characterId));
  return own(getEncounter(w).combatants, id)?.kind !== 'pc';
}

export function onSt(fn: (st: TswState, e: EngineEvent, w: World) => TswState): Reducer {
  return (w, e) => setTsw(w, fn(getTsw(w), e, w));
}
