// Pool sizes per ruleset for the action-economy pips (the kernel's data).
import { BANDS_ECONOMY, BEATS_ECONOMY, OSR_ECONOMY, TEAMS_ECONOMY, type EconomyDef } from '@tablekeeper/engine';

export function economyFor(rulesetId: string): EconomyDef | null {
  const id = rulesetId.toLowerCase();
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
