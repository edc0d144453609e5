// Pool sizes for the action-economy pips: the economy the kernel sends with
// every view, or (for a view from an older server) the ruleset's known one.
import { BANDS_ECONOMY, BEATS_ECONOMY, OSR_ECONOMY, TEAMS_ECONOMY, getEncounter, type EconomyDef, type World } from '@tablekeeper/engine';

export function economyFor(world: World): EconomyDef | null {
  const sent = world.ext['encounter'] ? getEncounter(world).economyDef : undefined;
  if (sent !== undefined) return sent;
  const id = world.rulesetId.toLowerCase();
  if (id.includes('osr')) return OSR_ECONOMY;
  if (id.includes('36')) return BANDS_ECONOMY;
  if (id.includes('team')) return TEAMS_ECONOMY;
  if (id.includes('klepto')) return BEATS_ECONOMY;
  return null;
}

export function poolSizes(def: EconomyDef | null): { [pool: string]: number } {
  if (!def) return {};
  return Object.fromEntries(Object.entries(def.pools).map(([k, p]) => [k, p.size]));
}
