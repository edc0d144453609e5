// 004 "Distance": every reach has a theatre-of-the-mind name and a unit
// length, each double the one before. The excerpt names five; the rules
// README settles the sixth as an unbounded "Seeing" distance (a setting).

export interface Distance {
  readonly id: string;
  /** The theatre-of-the-mind name shown at the table. */
  readonly name: string;
  /** Map units, or null for an unbounded distance. */
  readonly units: number | null;
}

export const NAMED_DISTANCES: readonly Distance[] = [
  { id: 'swinging', name: 'Swinging Distance', units: 1 },
  { id: 'spearing', name: 'Spearing Distance', units: 2 },
  { id: 'spitting', name: 'Spitting Distance', units: 4 },
  { id: 'throwing', name: 'Throwing Distance', units: 8 },
  { id: 'shooting', name: 'Shooting Distance', units: 16 },
];

export const DEFAULT_SIXTH_DISTANCE: Distance = { id: 'seeing', name: 'Seeing Distance', units: null };

/** The six distances, shortest first, with the table's choice for the sixth. */
export function distances(sixth: Distance = DEFAULT_SIXTH_DISTANCE): readonly Distance[] {
  return [...NAMED_DISTANCES, sixth];
}

/** The shortest named distance that reaches `units` (a gap of 3u is within Spitting Distance). */
export function distanceFor(units: number, sixth: Distance = DEFAULT_SIXTH_DISTANCE): Distance {
  if (!Number.isFinite(units) || units < 0) return sixth;
  for (const d of distances(sixth)) if (d.units === null || units <= d.units) return d;
  return sixth;
}

/** Whether something `units` away is within reach of an ability with range `reach`. */
export function withinReach(units: number, reach: string, sixth: Distance = DEFAULT_SIXTH_DISTANCE): boolean {
  const d = distanceById(reach, sixth);
  return d !== undefined && !beyondReach({ units }, d);
}

// ---------------------------------------------------------------- reach (ADR 124)

/** A distance in words: "Throwing Distance (8u)"; an unbounded sixth says it lies past the fifth. */
export function distanceWords(d: Distance): string {
  return d.units === null ? `${d.name} (past ${NAMED_DISTANCES[NAMED_DISTANCES.length - 1]!.units}u)` : `${d.name} (${d.units}u)`;
}

/** 004 "Distance": the three Basic Attacks and how far each reaches. */
export const BASIC_ATTACKS = ['melee', 'ranged', 'magic'] as const;
export type BasicAttack = (typeof BASIC_ATTACKS)[number];
export const BASIC_ATTACK_REACH: { readonly [k in BasicAttack]: string } = { melee: 'swinging', ranged: 'shooting', magic: 'throwing' };
/** An attacking ability whose sheet names no reach reaches as the melee Basic Attack does (the closest, so never too far). */
export const DEFAULT_ABILITY_REACH = 'swinging';

/** The distance keyed `id` at this table (the sixth is the table's), or undefined. */
export function distanceById(id: string, sixth: Distance = DEFAULT_SIXTH_DISTANCE): Distance | undefined {
  return distances(sixth).find((d) => d.id === id);
}

/** How far a target was said to be: one of the six distances by key, or units. */
export type SaidDistance = { readonly distance: Distance } | { readonly units: number };

export function saidWords(s: SaidDistance): string {
  return 'distance' in s ? `at ${distanceWords(s.distance)}` : `${s.units}u away`;
}

/**
 * Whether a target said to be `said` away is beyond `reach`. An unbounded reach takes anything; a bounded one
 * refuses an unbounded distance and anything past its units (a named distance counts as its full length).
 */
export function beyondReach(said: SaidDistance, reach: Distance): boolean {
  if (reach.units === null) return false;
  const units = 'distance' in said ? said.distance.units : said.units;
  return units === null || units > reach.units;
}
