// Every quantity a user controls has an explicit, configurable limit; an
// error names the limit it hit (DiceError.limit).

export interface DiceLimits {
  /** Longest notation accepted, in characters. */
  readonly maxLength: number;
  /** Most dice in one roll (summed over every dice term of the expression). */
  readonly maxDice: number;
  /** Most sides on one die. */
  readonly maxSides: number;
  /** Most extra rolls one exploding die may add (and most rerolls of one die). */
  readonly maxExplodeDepth: number;
  /** Deepest nesting of parentheses, functions and unary minus. */
  readonly maxNesting: number;
  /** Most inner-loop steps the exact odds may take. */
  readonly maxOddsWork: number;
  /** Widest distribution (max - min + 1) the exact odds may build. */
  readonly maxOddsSpan: number;
  /** Odds stop expanding an explosion chain once the chance it goes on is below this (reported as truncatedMass). */
  readonly oddsTruncation: number;
}

export const DEFAULT_LIMITS: DiceLimits = Object.freeze({
  maxLength: 1000,
  maxDice: 10_000,
  maxSides: 1_000_000,
  maxExplodeDepth: 100,
  maxNesting: 100,
  maxOddsWork: 300_000_000,
  maxOddsSpan: 2_000_000,
  oddsTruncation: 1e-16,
});

export function withLimits(overrides?: Partial<DiceLimits>): DiceLimits {
  if (!overrides) return DEFAULT_LIMITS;
  return Object.freeze({ ...DEFAULT_LIMITS, ...overrides });
}
