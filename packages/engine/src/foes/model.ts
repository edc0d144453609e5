// Foes' stats (ADR 33, issue 15): a creature no player holds keeps its numbers
// with the GM. Each ruleset declares which of a foe's stored fields players may
// read (`FoeFields`); one table setting, `foes.reveal`, lets the GM show more.
import { own } from '../core/own.js';
import type { EngineEvent, Json, Viewer, World } from '../core/types.js';
import { getEncounter } from '../encounter/state.js';

export const FOES_ID = 'foes';

/**
 * What players read of a foe: `none` (the default) only its declared public
 * fields; `defences` also the numbers they roll against (AC, PD, MD, Evasion,
 * Difficulty); `all` the whole stored record, as the GM sees it.
 */
export type FoeReveal = 'none' | 'defences' | 'all';
export const FOE_REVEALS: readonly FoeReveal[] = ['none', 'defences', 'all'];

export interface FoesState {
  readonly reveal: FoeReveal;
}

export const FOES_DEFAULT: FoesState = { reveal: 'none' };

/** The table's choice; any stored value it does not know reads as the default. */
export function foeRevealOf(world: World): FoeReveal {
  const st = own(world.ext, FOES_ID) as { reveal?: unknown } | undefined;
  const r = st?.reveal;
  return r === 'defences' || r === 'all' ? r : 'none';
}

/** A ruleset's declaration, by stored key: everything not named stays with the GM (default-deny). */
export interface FoeFields {
  /** Always shown: names, links, a defeated or down flag, what the table itself shows. */
  readonly shown: readonly string[];
  /** Shown once the GM reveals defences: the numbers a roll against the foe is compared with. */
  readonly defences: readonly string[];
}

/** The stored keys `viewer` reads of a foe's record, or null for all of them (the GM, or a table revealing everything). */
export function foeKeys(world: World, viewer: Viewer, fields: FoeFields): ReadonlySet<string> | null {
  if (viewer.role === 'gm') return null;
  const reveal = foeRevealOf(world);
  if (reveal === 'all') return null;
  return new Set(reveal === 'defences' ? [...fields.shown, ...fields.defences] : fields.shown);
}

/** Does `viewer` read this defence of a foe (its AC, PD, Difficulty...)? The GM always does. */
export function seesFoeDefence(world: World, viewer: Viewer): boolean {
  return viewer.role === 'gm' || foeRevealOf(world) !== 'none';
}

/** Does the table show players a foe's every number (HP included)? */
export const showsFoeNumbers = (world: World): boolean => foeRevealOf(world) === 'all';

/** A copy holding only `keys` of `values` (all of them when keys is null); values are JSON, shared not cloned. */
export function pickKeys<T extends { readonly [k: string]: Json | undefined }>(values: T, keys: ReadonlySet<string> | null): Partial<T> {
  if (keys === null) return values;
  const out: { [k: string]: Json | undefined } = {};
  for (const k of Object.keys(values)) if (keys.has(k)) out[k] = values[k];
  return out as Partial<T>;
}

/** Is this character a foe: not a PC, and no seat holds it (a player's retainer is theirs to read)? */
export function isFoeCharacter(world: World, id: string): boolean {
  const c = own(world.characters, id);
  if (c === undefined) return true;
  if (c.kind === 'pc' || c.seatId !== null) return false;
  return !Object.values(world.seats).some((s) => s.characterIds.includes(id));
}

/**
 * Is `id` a foe: a character that is (see isFoeCharacter), else a combatant that is not a PC.
 * An id nobody knows counts as a foe: unknown numbers stay with the GM.
 */
export function isFoe(world: World, id: Json | undefined): boolean {
  if (typeof id !== 'string') return true;
  if (own(world.characters, id) !== undefined) return isFoeCharacter(world, id);
  const c = own(getEncounter(world).combatants, id);
  if (c === undefined) return true;
  if (c.characterId !== null && own(world.characters, c.characterId) !== undefined) return isFoeCharacter(world, c.characterId);
  return c.kind !== 'pc';
}

/**
 * What a foe rule reads of the world, as a key (ADR 45): the reveal, and the characters, combatants
 * and `more` ids (a ruleset's sheets) that `foe` says are no foes. Every rule here calls an id the
 * world does not know a foe, so two worlds with one key answer `foe` alike for every id, and a
 * history view built on the rule reads alike in both.
 */
export function foeBasis(world: World, foe: (world: World, id: string) => boolean = isFoe, more: readonly string[] = []): string {
  const friends = (ids: readonly string[]) => ids.filter((id) => !foe(world, id)).sort();
  return JSON.stringify([foeRevealOf(world), friends(Object.keys(world.characters)), friends(Object.keys(getEncounter(world).combatants)), friends(more)]);
}

/** How one event type carries a foe's numbers: the field naming the foe, the numbers, and the one kept as 0 on a fall. */
export interface FoeNumbers {
  /** The event field that names the foe (a character, combatant or sheet id). */
  readonly id: string;
  /** Fields that hold the foe's own numbers (its HP before and after, its thresholds...). */
  readonly numbers: readonly string[];
  /** A field kept as 0 when the foe falls to 0 (the table sees the fall). */
  readonly fall?: string;
  /** A signed change players may read in place of a before/after pair: [from, to] -> `delta`. */
  readonly delta?: readonly [string, string];
  /** The reveal that shows these numbers: `defences` for what a roll is compared with, else `all` (the default). */
  readonly revealedBy?: 'defences' | 'all';
  /** Is the named creature a foe (default: the shared rule above; rulesets with their own sheets pass theirs). */
  readonly foe?: (world: World, id: Json | undefined) => boolean;
}

/**
 * One filter for every ruleset's foe events (ADR 33): players read a foe's
 * event without its numbers unless the table shows them all. Built from a
 * declaration, so the rulesets list fields instead of writing five filters.
 */
export function foeNumbersView(spec: FoeNumbers): (world: World, e: EngineEvent) => EngineEvent {
  const foe = spec.foe ?? isFoe;
  const revealed = spec.revealedBy === 'defences' ? (w: World) => foeRevealOf(w) !== 'none' : showsFoeNumbers;
  return (world, e) => {
    if (revealed(world) || !foe(world, e[spec.id])) return e;
    const out: { [k: string]: Json | undefined } = {};
    for (const [k, v] of Object.entries(e)) if (!spec.numbers.includes(k)) out[k] = v;
    if (spec.delta !== undefined) {
      const [from, to] = spec.delta.map((k) => e[k]);
      out['delta'] = typeof from === 'number' && typeof to === 'number' ? to - from : 0;
    }
    const fell = spec.fall === undefined ? undefined : e[spec.fall];
    if (spec.fall !== undefined && typeof fell === 'number' && fell <= 0) out[spec.fall] = 0;
    return out as EngineEvent;
  };
}

/** The code and sentence a player gets when a foe's defence decides their odds and the GM keeps it (the code other secret values answer with). */
export const FOE_SECRET = 'VALUES_HIDDEN';
export const secretDefence = (name: string, defence: string): string => `the GM keeps ${name}'s ${defence} secret, and exact odds would give it away (the GM may reveal foes' defences)`;
