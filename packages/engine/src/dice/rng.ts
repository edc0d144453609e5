// The randomness port. The engine never calls Math.random: every roll draws from
// an injected Rng, so tests and `--seed` replay exactly and fair play is unbiased.

export interface Rng {
  /** A uniform integer in [1, sides]; `sides` is a positive safe integer <= 2^32. */
  die(sides: number): number;
  /** 'fair' draws from the OS; 'seeded' is reproducible from `snapshot()`. */
  readonly kind: 'fair' | 'seeded';
  /** Serialisable state for seeded generators (null for fair ones). */
  snapshot(): string | null;
  /**
   * 32 random bits for minting ids (ADR 10), from a stream apart from the dice,
   * so a new id never moves a scripted or seeded roll. Optional for hand-made test Rngs.
   */
  idBits?(): number;
  /**
   * Draws `count` dice of `sides` into `out[0..count)`: the same faces, in the
   * same order, as `count` calls of `die(sides)`. Optional (callers fall back
   * to `die`); the built-in generators have it so a term's dice are one call.
   */
  fill?(sides: number, out: Int32Array, count: number): void;
}

/** `count` dice into `out` through `rng.fill` when it has one, else one `die` call each. */
export function drawDice(rng: Rng, sides: number, out: Int32Array, count: number): void {
  if (rng.fill !== undefined) {
    rng.fill(sides, out, count);
    return;
  }
  for (let i = 0; i < count; i++) out[i] = rng.die(sides);
}

const TWO_32 = 0x1_0000_0000;

function checkSides(sides: number): void {
  if (!Number.isSafeInteger(sides) || sides < 1 || sides > TWO_32) {
    throw new RangeError(`die sides must be an integer in [1, 2^32], got ${sides}`);
  }
}

// Rejection limits for common dice, computed once: `TWO_32 % sides` is a
// floating-point remainder, which would otherwise dominate the cost of a die.
const LIMITS = new Float64Array(1025);
/** 1 / sides for the same dice: a multiply instead of a divide per draw (corrected below). */
const INVERSES = new Float64Array(1025);

// Filled up front for 2..1024 sides, so a common die reads them without a check.
for (let s = 2; s <= 1024; s++) {
  LIMITS[s] = TWO_32 - (TWO_32 % s);
  INVERSES[s] = 1 / s;
}

function limitFor(sides: number): number {
  if (sides <= 1024) {
    const l = LIMITS[sides]!;
    if (l !== 0) return l;
    return (LIMITS[sides] = TWO_32 - (TWO_32 % sides));
  }
  return TWO_32 - (TWO_32 % sides);
}

/** Unbiased mapping of 32-bit draws onto [1, sides] by rejection of the ragged top. */
function uniform(next32: () => number, sides: number): number {
  if (sides === 1) return 1;
  const limit = limitFor(sides);
  for (;;) {
    const u = next32();
    // u - floor(u / sides) * sides is exact here (u < 2^32) and avoids a slow float remainder.
    if (u < limit) return u - Math.floor(u / sides) * sides + 1;
  }
}

/**
 * Fair dice from `crypto.getRandomValues`, fetched in batches (one call per
 * 1,024 draws, not one per die) to keep rolling fast.
 */
export function fairRng(batch = 1024): Rng {
  const buffer = new Uint32Array(batch);
  let index = batch;
  const next32 = (): number => {
    if (index >= batch) {
      globalThis.crypto.getRandomValues(buffer);
      index = 0;
    }
    return buffer[index++]!;
  };
  return {
    kind: 'fair',
    die(sides) {
      checkSides(sides);
      return uniform(next32, sides);
    },
    snapshot: () => null,
    idBits: next32,
    fill(sides, out, count) {
      checkSides(sides);
      if (sides > 0x7fff_ffff) throw new RangeError('fill draws into an Int32Array: sides must be below 2^31');
      for (let i = 0; i < count; i++) out[i] = uniform(next32, sides);
    },
  };
}

/** splitmix32: spreads a user seed over the generator's 128-bit state. */
function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** Seeds may be integers or strings; strings hash with FNV-1a to 32 bits. */
export function seedToUint32(seed: number | string): number {
  if (typeof seed === 'number') return seed >>> 0;
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) {
    h ^= seed.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * Seeded dice: xoshiro128** (Blackman & Vigna), pure 32-bit integer arithmetic,
 * so the same seed gives the same rolls on every platform. State serialises as
 * `xoshiro128ss:` + 32 hex digits.
 */
export function seededRng(seed: number | string | { state: string }): Rng {
  const s = new Uint32Array(4);
  if (typeof seed === 'object') {
    const m = /^xoshiro128ss:([0-9a-f]{32})$/.exec(seed.state);
    if (!m) throw new RangeError(`not a seeded Rng state: ${JSON.stringify(seed.state)}`);
    for (let i = 0; i < 4; i++) s[i] = parseInt(m[1]!.slice(i * 8, i * 8 + 8), 16);
  } else {
    const mix = splitmix32(seedToUint32(seed));
    for (let i = 0; i < 4; i++) s[i] = mix();
  }
  if ((s[0]! | s[1]! | s[2]! | s[3]!) === 0) s[0] = 1; // the all-zero state is a fixed point
  // The state lives in four int32 locals (same bits as the uint32 words):
  // cheaper than typed-array loads and stores on every draw.
  let a = s[0]! | 0;
  let b = s[1]! | 0;
  let c = s[2]! | 0;
  let d = s[3]! | 0;
  const next32 = (): number => {
    const m = Math.imul(b, 5);
    const result = Math.imul((m << 7) | (m >>> 25), 9) >>> 0;
    const t = b << 9;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = (d << 11) | (d >>> 21);
    return result;
  };
  return {
    kind: 'seeded',
    die(sides) {
      checkSides(sides);
      if (sides === 1) return 1;
      const limit = limitFor(sides);
      let inv = sides <= 1024 ? INVERSES[sides]! : 1 / sides;
      if (inv === 0) inv = INVERSES[sides] = 1 / sides;
      for (;;) {
        const u = next32();
        if (u < limit) {
          // u mod sides: the float quotient is off by at most one, fixed here.
          let r = u - Math.floor(u * inv) * sides;
          if (r < 0) r += sides;
          else if (r >= sides) r -= sides;
          return r + 1;
        }
      }
    },
    fill(sides, out, count) {
      let limit: number;
      let inv: number;
      // A common die (2..1024 sides) needs no checks beyond this one.
      if (sides >= 2 && sides <= 1024 && (sides | 0) === sides) {
        limit = LIMITS[sides]!;
        inv = INVERSES[sides]!;
      } else {
        checkSides(sides);
        if (sides > 0x7fff_ffff) throw new RangeError('fill draws into an Int32Array: sides must be below 2^31');
        if (sides === 1) {
          out.fill(1, 0, count);
          return;
        }
        limit = limitFor(sides);
        inv = 1 / sides;
      }
      // The same draws as `die`, with the per-die set-up done once and the
      // generator's state in locals (registers) for the whole batch.
      let a0 = a;
      let b0 = b;
      let c0 = c;
      let d0 = d;
      for (let i = 0; i < count; ) {
        const m = Math.imul(b0, 5);
        const u = Math.imul((m << 7) | (m >>> 25), 9) >>> 0;
        const t = b0 << 9;
        c0 ^= a0;
        d0 ^= b0;
        b0 ^= c0;
        a0 ^= d0;
        c0 ^= t;
        d0 = (d0 << 11) | (d0 >>> 21);
        if (u < limit) {
          let r = u - Math.floor(u * inv) * sides;
          if (r < 0) r += sides;
          else if (r >= sides) r -= sides;
          out[i++] = r + 1;
        }
      }
      a = a0;
      b = b0;
      c = c0;
      d = d0;
    },
    snapshot: () => 'xoshiro128ss:' + [a, b, c, d].map((x) => (x >>> 0).toString(16).padStart(8, '0')).join(''),
    idBits: splitmix32((typeof seed === 'object' ? seedToUint32(seed.state) : seedToUint32(seed)) ^ 0x1d5e_a11d),
  };
}

/** A scripted Rng for tests and examples: returns the given faces in order. */
export function fixedRng(faces: readonly number[]): Rng {
  let i = 0;
  return {
    kind: 'seeded',
    die(sides) {
      checkSides(sides);
      if (i >= faces.length) throw new RangeError(`fixedRng ran out of faces after ${faces.length} dice`);
      const face = faces[i++]!;
      if (face < 1 || face > sides) throw new RangeError(`fixedRng face ${face} is not on a d${sides}`);
      return face;
    },
    snapshot: () => `fixed:${i}`,
    idBits: splitmix32(faces.length ^ 0x1d5e_a11d),
  };
}
