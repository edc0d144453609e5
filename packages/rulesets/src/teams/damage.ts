// 003 "Damage": damage types, matching reduction (minimum 1), endurance before
// health, harmed and bloodied.

export type DamageCategory = 'physical' | 'elemental' | 'typeless';

/** The Damage Types table; a source naming no type is typeless. */
export const DAMAGE_TYPES: { readonly [name: string]: DamageCategory } = {
  arcane: 'elemental',
  bludgeoning: 'physical',
  cold: 'elemental',
  fire: 'elemental',
  piercing: 'physical',
  psychic: 'typeless',
  radiant: 'elemental',
  shock: 'elemental',
  slashing: 'physical',
  void: 'elemental',
  typeless: 'typeless',
};

export function damageCategory(type: string | null | undefined): DamageCategory | null {
  if (type === null || type === undefined) return 'typeless';
  return DAMAGE_TYPES[type.toLowerCase()] ?? null;
}

/**
 * Damage after the matching reduction: physical and elemental damage are
 * reduced by deflection of that category (never below 1); typeless is not.
 */
export function reducedDamage(raw: number, category: DamageCategory, reduction: number): number {
  if (category === 'typeless') return Math.max(0, raw);
  return Math.max(1, raw - Math.max(0, reduction));
}

export interface Pools {
  readonly endurance: number;
  readonly health: number;
}

/** Endurance first, the excess to health; neither goes below 0. */
export function splitDamage(p: Pools, amount: number): Pools & { readonly toEndurance: number; readonly toHealth: number; readonly overflow: number } {
  const n = Math.max(0, amount);
  const toEndurance = Math.min(p.endurance, n);
  const rest = n - toEndurance;
  const toHealth = Math.min(p.health, rest);
  return { endurance: p.endurance - toEndurance, health: p.health - toHealth, toEndurance, toHealth, overflow: rest - toHealth };
}

/** Harmed: at half of maximum endurance or less. */
export function isHarmed(endurance: number, maxEndurance: number): boolean {
  return endurance * 2 <= maxEndurance;
}

/** Bloodied: below maximum health. */
export function isBloodied(health: number, maxHealth: number): boolean {
  return health < maxHealth;
}

/** Staying conscious: losing health while missing more than your constitution calls for a fortify against the missing health. */
export function consciousnessDifficulty(health: number, maxHealth: number, constitution: number): number | null {
  const missing = maxHealth - health;
  return missing > constitution ? missing : null;
}
