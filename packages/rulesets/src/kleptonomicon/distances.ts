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
  const d = distances(sixth).find((x) => x.id === reach);
  if (d === undefined) return false;
  return d.units === null || units <= d.units;
}
