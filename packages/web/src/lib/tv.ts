// The shared display for a TV (issue 20): what a room's screen shows, read
// from a spectator's projection (the server already left out hidden foes,
// hidden countdowns and everyone's secrets). Pure, so it is tested without
// a browser.
import type { Combatant, World } from '@tablekeeper/engine';
import { timeOfDay } from './clock.ts';
import { countdownsOf, isRedacted } from './countdowns.ts';
import { conditionName, conditionsOn, displayOrder, durationLabel, encounterOf, namesOf, roundWords, tracksOf } from './encounter.ts';
import { sheetTrackOf } from './sheetTrack.ts';

/** One health track as the phones show it ("HP 5/7", "bloodied"): read from the spectator's projection, so a number the GM keeps is absent. */
export interface TvTrack {
  readonly label: string;
  readonly value: number;
  readonly max: number;
  readonly states: readonly string[];
}

export interface TvRow {
  readonly id: string;
  readonly name: string;
  readonly current: boolean;
  readonly acted: boolean;
  readonly defeated: boolean;
  readonly side: 'pc' | 'npc';
  readonly tracks: readonly TvTrack[];
  /** Conditions as chips: "Slowed ×2 · 1 round left". */
  readonly conditions: readonly string[];
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
  const names = running ? namesOf(world) : {};
  const order: TvRow[] = running
    ? displayOrder(enc).map((c) => {
        // The same reading as the phones' rows: the sheet's kept track (36th Way, teams) wins over the combatant's copy.
        const stats = { ...(c.characterId ? world.characters[c.characterId]?.stats : undefined), ...c.stats, ...sheetTrackOf(world, c) };
        const tracks = tracksOf(stats, world.rulesetId).map((t) => ({ label: t.label, value: t.value, max: t.max, states: t.states }));
        const conditions = conditionsOn(enc, c.id).map((x) => {
          const left = durationLabel(x.duration, names);
          return `${conditionName(enc, x.defId)}${x.stacks > 1 ? ` ×${x.stacks}` : ''}${left ? ` · ${left}` : ''}`;
        });
        const down = defeated(c) || (c.kind === 'npc' && tracks.some((t) => t.label === 'HP marked' && t.states.includes('down')));
        return { id: c.id, name: c.name, current: enc.current === c.id, acted: enc.acted.includes(c.id), defeated: down, side: c.kind, tracks, conditions };
      })
    : [];
  const countdowns: TvCountdown[] = countdownsOf(world)
    .countdowns.filter((c) => isRedacted(c) || c.status !== 'ended')
    .map((c) => (isRedacted(c) ? { id: c.id, name: c.name, value: null, start: null } : { id: c.id, name: c.name, value: c.value, start: c.start }));
  const current = running && enc.current !== null ? (enc.combatants[enc.current]?.name ?? null) : null;
  const idle = running ? '' : enc !== null && enc.roster.length > 0 ? `${(enc.number ?? 1) > 1 ? `Encounter ${enc.number}` : 'The encounter'} has ended.` : 'No fight right now.';
  return { table: world.name, round: running ? roundWords(enc, world) : null, clock: timeOfDay(world.clock?.seconds ?? 0), turn: current, order, countdowns, idle };
}
