// Ids the engine mints. They are random (ADR 10: a player must not guess a
// hidden character's id from a visible one) yet replay exactly: decide() draws
// them from the injected Rng's id stream and the event records them, so
// reducers only read ids, never make them. Old sequential ids (`ch-7`) stay valid.
import type { Rng } from '../dice/rng.js';
import type { World } from './types.js';

/** Letters per 32-bit draw: 26^6 < 2^32. */
const LETTERS_PER_DRAW = 6;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz';

/** Twelve letters (about 56 bits); letters only, so claimId never reads one as a counter. */
function randomTail(next: () => number): string {
  let out = '';
  for (let d = 0; d < 2; d++) {
    let x = next() >>> 0;
    for (let k = 0; k < LETTERS_PER_DRAW; k++) {
      out += ALPHABET[x % 26];
      x = Math.floor(x / 26);
    }
  }
  return out;
}

/** A stand-in stream for Rngs without an id stream (hand-made test doubles): deterministic, not secret. */
function fallbackStream(world: World, prefix: string): () => number {
  let h = 0x811c9dc5;
  for (const ch of `${world.tableId}|${prefix}|${world.nextId}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return () => {
    h = (h + 0x9e3779b9) >>> 0;
    let z = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/**
 * A fresh id `${prefix}-${twelve random letters}` and the world with its mint
 * counter advanced. Pass `env.rng`; without one (seats, which are public) the
 * id is the sequential `${prefix}-${n}`.
 */
export function mintId(world: World, prefix: string, rng?: Rng): [string, World] {
  const next = { ...world, nextId: world.nextId + 1 };
  if (rng === undefined) return [`${prefix}-${world.nextId}`, next];
  const draw = rng.idBits === undefined ? fallbackStream(world, prefix) : () => rng.idBits!();
  return [`${prefix}-${randomTail(draw)}`, next];
}

/**
 * Reducer side: make sure world.nextId is past the numeric suffix of a
 * sequential id; a random id moves it on by one, so the counter still counts
 * every mint (and the fallback stream never repeats itself).
 */
export function claimId(world: World, id: string): World {
  const dash = id.lastIndexOf('-');
  const n = dash < 0 ? Number.NaN : Number(id.slice(dash + 1));
  if (!Number.isSafeInteger(n)) return { ...world, nextId: world.nextId + 1 };
  if (n < world.nextId) return world;
  return { ...world, nextId: n + 1 };
}
