// The dice layer: the Rng port, exact distributions, named rolls and the notation.
export * from './rng.js';
export { DiceError, type DiceErrorCode } from './errors.js';
export { Pmf, pmfOfDie, convolve, mapPmf, negatePmf, shiftPmf, sumIid, keepHighest, keepLowest, extremeOf, OddsBudget } from './pmf.js';
export * from './named.js';
