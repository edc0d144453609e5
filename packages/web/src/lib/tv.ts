// The shared display for a TV (issue 20): what a room's screen shows, read
// from a spectator's projection (the server already left out hidden foes,
// hidden countdowns and everyone's secrets). Pure, so it is tested without
// a browser.
import type { Combatant, World } from '@tablekeeper/engine';
import { timeOfDay } from './clock.ts';
import { countdownsOf, isRedacted } from './countdowns.ts';
import { displayOrder, encounterOf, roundWords } from './encounter.ts';

export interface TvRow {
  readonly id: string;
  readonly name: string;
  readonly current: boolean;
  readonly acted: boolean;
  readonly defeated: boolean;
  readonly side: 'pc' | 'npc';
}

export interface TvCountdown {
  readonly id: string;
  readonly name: string;
  /** null when the GM shows its name only. */
  readonly value: number | null;
  readonly start: number | null;
}

export interface TvModel {
  readonly table: string;
  /** "Round 3", "Surprise round", "Conflict" (a spotlight without rounds), or null between fights. */
  readonly round: string | null;
  /** The one clock's time of day ("Day 1, 00:18"); the spectator's view holds no GM secret in it. */
  readonly clock: string;
  readonly turn: string | null;
  readonly order: readonly TvRow[];
  readonly countdowns: readonly TvCountdown[];
  /** "Encounter 2 has ended." and the like, between fights. */
  readonly idle: string;
}

// The same test as the kernel's (an NPC at 0 HP or below is out), read from what the spectator may see.
const defeated = (c: Combatant): boolean => c.kind === 'npc' && typeof c.stats['hp'] === 'number' && c.stats['hp'] <= 0;

export function tvModel(world: World): TvModel {
  const enc = encounterOf(world);
  const running = enc !== null && enc.active;
  const order: TvRow[] = running
    ? displayOrder(enc).map((c) => ({ id: c.id, name: c.name, current: enc.current === c.id, acted: enc.acted.includes(c.id), defeated: defeated(c), side: c.kind }))
    : [];
  const countdowns: TvCountdown[] = countdownsOf(world)
    .countdowns.filter((c) => isRedacted(c) || c.status !== 'ended')
    .map((c) => (isRedacted(c) ? { id: c.id, name: c.name, value: null, start: null } : { id: c.id, name: c.name, value: c.value, start: c.start }));
  const current = running && enc.current !== null ? (enc.combatants[enc.current]?.name ?? null) : null;
  const idle = running ? '' : enc !== null && enc.roster.length > 0 ? `${(enc.number ?? 1) > 1 ? `Encounter ${enc.number}` : 'The encounter'} has ended.` : 'No fight right now.';
  return { table: world.name, round: running ? roundWords(enc, world) : null, clock: timeOfDay(world.clock?.seconds ?? 0), turn: current, order, countdowns, idle };
}
