// 002 "Positioning and Movement", "Free and Engaged", "Disengaging and
// Popping Off", "Intercept", "Opportunity Attacks": relative positions
// (engaged / next to, nearby, far), who is Free, disengage difficulty,
// move costs, and who may intercept or take an opportunity attack.
import type { World } from '@tablekeeper/engine';
import { getEncounter, own } from '@tablekeeper/engine';
import { numSetting } from './settings.js';
import { getTsw, pairKey, type Range, type TswState } from './state.js';

export function rangeBetween(st: TswState, a: string, b: string): Range {
  const k = pairKey(a, b);
  if (st.engaged.includes(k)) return 'engaged';
  return st.far.includes(k) ? 'far' : 'nearby';
}

/** Enemies: combatants on another side of the encounter. */
export function areEnemies(world: World, a: string, b: string): boolean {
  const enc = getEncounter(world);
  const ca = own(enc.combatants, a);
  const cb = own(enc.combatants, b);
  return ca !== undefined && cb !== undefined && ca.side !== cb.side;
}

/** Everyone engaged / next to `id`. */
export function engagedWith(st: TswState, id: string): string[] {
  const out: string[] = [];
  for (const k of st.engaged) {
    const [a, b] = k.split('|') as [string, string];
    if (a === id) out.push(b);
    else if (b === id) out.push(a);
  }
  return out.sort();
}

export function engagedEnemies(world: World, id: string): string[] {
  return engagedWith(getTsw(world), id).filter((o) => areEnemies(world, id, o));
}

/** Free: not engaged with any enemy. */
export function isFree(world: World, id: string): boolean {
  return engagedEnemies(world, id).length === 0;
}

/** Disengage difficulty: 11 against one enemy, +1 for every enemy past the first. */
export function disengageTarget(world: World | null, enemies: number): number {
  return numSetting(world, '36th-way.disengageTarget') + Math.max(0, enemies - 1);
}

/** Move actions between relative positions, either way: far <-> nearby 1, nearby <-> engaged 1, far <-> engaged 2. */
export function movesNeeded(from: Range, to: Range): number {
  const rank = { engaged: 0, nearby: 1, far: 2 } as const;
  return Math.abs(rank[from] - rank[to]);
}

/** Can `attacker` reach `target` with the ranged stance? */
export function inReach(range: Range, reach: 'nearby' | 'far'): boolean {
  // Abilities that target Nearby may also target Engaged / Next To characters.
  return reach === 'far' ? true : range !== 'far';
}
