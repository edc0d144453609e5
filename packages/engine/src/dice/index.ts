// The dice layer: the Rng port, exact distributions, named rolls and the notation.
export * from './rng.js';
export { DiceError, type DiceErrorCode } from './errors.js';
export { Pmf, pmfOfDie, convolve, mapPmf, negatePmf, shiftPmf, sumIid, keepHighest, keepLowest, extremeOf, OddsBudget } from './pmf.js';
export * from './named.js';
export { DEFAULT_LIMITS, withLimits, type DiceLimits } from './limits.js';
export type { Root as DiceAst, Expr as DiceExpr, CompareOp, KeepMode, Rounding, DiceNode, RerollRule } from './ast.js';
export { print as printDice, divide as divideRounded } from './ast.js';
export type { CompiledDice, DiceRollResult, DiceGroupRoll, DieRoll, LabelledConstant } from './compile.js';
export type { OddsResult } from './odds.js';
export { parseDice, compileDice, compileDiceUncached, oddsUncached, rollDice, odds, clearDiceCache, diceCacheSize, COMPILE_CACHE_SIZE } from './notation.js';
export {
  isNamedRoll,
  parseNamedRoll,
  rollNamed,
  namedOdds,
  WAY_CRIT_AT,
  WAY_CRIT_FAIL_AT,
  type NamedRollKind,
  type NamedRollSpec,
  type NamedRollResult,
  type NamedOddsResult,
  type NamedOutcome,
} from './named-notation.js';
export { costUnits, diceCost, notationCost, DICE_COST_WEIGHTS, type DiceCost } from './cost.js';
