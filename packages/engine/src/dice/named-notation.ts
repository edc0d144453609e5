// The named rolls as text: `duality+2 adv vs 15`, `way+5 adv2 vs 14`,
// `klepto+1 dis2 vs 7`, `team(d8, d6) +1 vs 12`, `osr+3 adv vs 15`,
// `luck+1 vs 18`. One keyword, then clauses in any order, each at most once:
//
//   named  := KEYWORD [ '(' die [ ',' die ] ')' ] { clause }      (dice: team only)
//   clause := ('+' | '-') INT        modifier (team: bonus; luck: luck modifier)
//           | 'adv' [INT] | 'dis' [INT]   advantage / disadvantage (count 1 when left out; they cancel)
//           | 'vs' ['+' | '-'] INT   difficulty, DC or target: meet or beat
//           | 'crit' INT             way: natural that crits (17 by default)
//           | 'luck' ('+' | '-') INT team: luck die modifier
//           | 'noluck'               team: no +4 for a luck die of 20+ (attacks)
//   die    := 'd' INT
//
// Parsed by hand on the notation's tokens, so every error has its column;
// rolled and measured by the named-roll functions in named.ts.

import { DiceError } from './errors.js';
import { DEFAULT_LIMITS, type DiceLimits, withLimits } from './limits.js';
import {
  type D20Roll,
  type DualityOutcome,
  type DualityRoll,
  type KleptoTestRoll,
  type LuckTestRoll,
  type TeamTestRoll,
  type ThreeD6Roll,
  KLEPTO_ADVANTAGE_CAP,
  MAX_NAMED_ADVANTAGE,
  MAX_NAMED_MODIFIER,
  TEAM_DIE_MAX,
  TEAM_LUCK_THRESHOLD,
  TEAM_MAX_ADVANTAGE,
  d20Distribution,
  dualityOutcomeDistribution,
  dualityTotalDistribution,
  kleptoTestDistribution,
  luckTestProbability,
  rollD20,
  rollDuality,
  rollKleptoTest,
  rollLuckTest,
  rollTeamTest,
  rollThreeD6,
  teamTestDistribution,
  threeD6NaturalDistribution,
} from './named.js';
import { type Pmf, pmfOfDie, shiftPmf } from './pmf.js';
import { NAMED_ROLL_NAMES, type Token, tokenize } from './parser.js';
import type { Rng } from './rng.js';

export type NamedRollKind = 'duality' | 'way' | 'klepto' | 'team' | 'osr' | 'luck';

/** The 36th Way: a natural of this or more crits, unless `crit N` says otherwise (Vulnerable: 16). */
export const WAY_CRIT_AT = 17;
/** The 36th Way: a natural 3 is a Crit Fail. */
export const WAY_CRIT_FAIL_AT = 3;

/** A parsed named roll. `advantage` is the net count (advantage minus disadvantage). */
export interface NamedRollSpec {
  readonly kind: NamedRollKind;
  /** Added to the roll (team: the fixed bonus; luck: the luck modifier). */
  readonly modifier: number;
  readonly advantage: number;
  /** Meet-or-beat target (`vs N`), or null. */
  readonly difficulty: number | null;
  /** team: sides of the attribute and skill dice (skill 0 = none). */
  readonly attributeDie: number;
  readonly skillDie: number;
  /** team: the luck die's modifier and whether a luck of 20+ adds the bonus. */
  readonly luckModifier: number;
  readonly luckBonus: boolean;
  /** way: the natural that crits. */
  readonly critAt: number;
}

/** Named result of a roll, in its system's words (see docs/dice.md). */
export type NamedOutcome =
  | DualityOutcome
  | 'withHope'
  | 'withFear'
  | 'crit'
  | 'critFail'
  | 'criticalSuccess'
  | 'criticalFailure'
  | 'natural20'
  | 'natural1'
  | 'luckBonus';

export interface NamedRollResult {
  readonly expression: string;
  readonly spec: NamedRollSpec;
  /** Duality total, 36th Way natural + modifier, Kleptonomicon Score, team total, d20 + modifier, luck. */
  readonly total: number;
  /** The natural value where the system has one (36th Way kept dice, the OSR kept d20), else null. */
  readonly natural: number | null;
  /** Met the difficulty (duality: a critical always succeeds); null without `vs`. */
  readonly success: boolean | null;
  /** The roll's named result, null when there is none (e.g. an ordinary 36th Way natural). */
  readonly outcome: NamedOutcome | null;
  /** The recorded roll, every die, as the named-roll function returns it. */
  readonly roll: DualityRoll | Omit<DualityRoll, 'difficulty' | 'success' | 'outcome'> | ThreeD6Roll | KleptoTestRoll | TeamTestRoll | D20Roll | LuckTestRoll;
}

export interface NamedOddsResult {
  readonly expression: string;
  readonly spec: NamedRollSpec;
  readonly min: number;
  readonly max: number;
  readonly mean: number;
  readonly variance: number;
  readonly stddev: number;
  /** Distribution of `total` (duality: before the critical rule). */
  readonly distribution: Pmf;
  readonly truncatedMass: number;
  /** Chance of success with `vs`, else null. */
  readonly probability: number | null;
  /** Chance of each named outcome (duality with `vs`: the five outcomes, summing to 1). */
  readonly outcomes: Partial<Record<NamedOutcome, number>>;
}

/** Does this text start with a named roll's keyword? (Otherwise it is notation.) */
export function isNamedRoll(expression: string): boolean {
  const m = /^\s*([A-Za-z]+)/.exec(expression);
  return m !== null && NAMED_ROLL_NAMES.includes(m[1]!.toLowerCase());
}

const CLAUSES: Record<NamedRollKind, string> = {
  duality: '+N / -N, adv [N], dis [N], vs N',
  way: '+N / -N, adv [N], dis [N], vs N, crit N',
  klepto: '+N / -N, adv [N], dis [N], vs N',
  team: '+N / -N, adv [N], dis [N], vs N, luck +N / -N, noluck',
  osr: '+N / -N, adv, dis, vs N',
  luck: '+N / -N, vs N',
};

class NamedParser {
  private i = 0;
  private readonly toks: Token[];
  constructor(private readonly src: string) {
    this.toks = tokenize(src);
  }

  private peek(): Token {
    return this.toks[this.i]!;
  }
  private next(): Token {
    return this.toks[this.i++]!;
  }
  private fail(message: string, pos: number, code: 'SYNTAX' | 'BAD_OPTION' = 'SYNTAX'): never {
    throw new DiceError(code, message, pos, this.src);
  }
  private describe(t: Token): string {
    return t.kind === 'eof' ? 'the end' : JSON.stringify(t.text);
  }

  /** An integer right here, range-checked with the column. */
  private int(what: string, min: number, max: number, signed: boolean): number {
    let sign = 1;
    let t = this.peek();
    const at = t.pos;
    if (signed && t.kind === 'op' && (t.text === '+' || t.text === '-')) {
      this.next();
      sign = t.text === '-' ? -1 : 1;
      t = this.peek();
    }
    if (t.kind !== 'num') this.fail(`expected ${what} but found ${this.describe(t)}`, t.pos);
    this.next();
    const v = sign * Number(t.text);
    if (!Number.isSafeInteger(v) || v < min || v > max) this.fail(`${what} must be from ${min} to ${max}, got ${t.text.length > 12 ? 'a larger number' : v}`, at, 'BAD_OPTION');
    return v;
  }

  private die(what: string): number {
    const d = this.next();
    if (d.kind !== 'name' || d.text !== 'd') this.fail(`expected the ${what} as a die, e.g. d8, but found ${this.describe(d)}`, d.pos);
    const s = this.peek();
    if (s.kind !== 'num' || s.pos !== d.end) this.fail(`expected the number of sides right after "d"`, s.kind === 'eof' ? s.pos : d.end);
    return this.int(`the ${what}'s sides`, 1, TEAM_DIE_MAX, false);
  }

  parse(): NamedRollSpec {
    const head = this.next();
    const kind = head.text as NamedRollKind;
    if (head.kind !== 'name' || !NAMED_ROLL_NAMES.includes(kind)) this.fail(`expected a named roll (${NAMED_ROLL_NAMES.join(', ')})`, head.pos);
    let attributeDie = 0;
    let skillDie = 0;
    const open = this.peek();
    if (open.kind === 'op' && open.text === '(') {
      if (kind !== 'team') this.fail(`${kind} takes no dice in parentheses`, open.pos);
      this.next();
      attributeDie = this.die('attribute die');
      const sep = this.peek();
      if (sep.kind === 'op' && sep.text === ',') {
        this.next();
        skillDie = this.die('skill die');
      }
      const close = this.next();
      if (close.kind !== 'op' || close.text !== ')') this.fail(`expected ")" but found ${this.describe(close)}`, close.pos);
    } else if (kind === 'team') {
      this.fail('team needs its dice: team(attribute die, skill die), e.g. team(d8, d6)', open.pos);
    }

    let modifier: number | null = null;
    let adv: number | null = null;
    let dis: number | null = null;
    let difficulty: number | null = null;
    let critAt: number | null = null;
    let luckModifier: number | null = null;
    let luckBonus = true;
    let advPos = 0;
    const once = (seen: unknown, t: Token, what: string): void => {
      if (seen !== null) this.fail(`${what} is given twice`, t.pos);
    };
    for (;;) {
      const t = this.peek();
      if (t.kind === 'eof') break;
      if (t.kind === 'op' && (t.text === '+' || t.text === '-')) {
        once(modifier, t, 'the modifier');
        modifier = this.int('a modifier', -MAX_NAMED_MODIFIER, MAX_NAMED_MODIFIER, true);
        continue;
      }
      if (t.kind === 'cmp') this.fail(`named rolls take their target as "vs N" (meet or beat), not "${t.text}"`, t.pos);
      if (t.kind === 'num') this.fail(`a modifier needs its sign: +${t.text} or -${t.text}`, t.pos);
      if (t.kind !== 'name') this.fail(`unexpected ${this.describe(t)}`, t.pos);
      const word = t.text;
      if (word === 'adv' || word === 'dis') {
        once(word === 'adv' ? adv : dis, t, word === 'adv' ? 'advantage' : 'disadvantage');
        this.next();
        const c = this.peek();
        let n = 1;
        if (c.kind === 'num') {
          if (kind === 'osr') this.fail('the OSR check has advantage or not: write adv or dis, without a count', c.pos, 'BAD_OPTION');
          n = this.int(`the ${word === 'adv' ? 'advantage' : 'disadvantage'} count`, 0, MAX_NAMED_ADVANTAGE, false);
        }
        if (word === 'adv') adv = n;
        else dis = n;
        if (advPos === 0) advPos = t.pos;
        continue;
      }
      if (word === 'vs') {
        once(difficulty, t, 'the difficulty');
        this.next();
        difficulty = this.int('a difficulty after "vs"', -MAX_NAMED_MODIFIER, MAX_NAMED_MODIFIER, true);
        continue;
      }
      if (word === 'crit' && kind === 'way') {
        once(critAt, t, 'the crit threshold');
        this.next();
        critAt = this.int('the natural that crits', WAY_CRIT_FAIL_AT + 1, 18, false);
        continue;
      }
      if (word === 'luck' && kind === 'team') {
        once(luckModifier, t, 'the luck modifier');
        this.next();
        const s = this.peek();
        if (s.kind !== 'op' || (s.text !== '+' && s.text !== '-')) this.fail('the luck modifier needs its sign: luck+2 or luck-1', s.pos);
        luckModifier = this.int('a luck modifier', -MAX_NAMED_MODIFIER, MAX_NAMED_MODIFIER, true);
        continue;
      }
      if (word === 'noluck' && kind === 'team') {
        if (!luckBonus) this.fail('noluck is given twice', t.pos);
        this.next();
        luckBonus = false;
        continue;
      }
      this.fail(`unknown option ${JSON.stringify(word)} for ${kind} (options: ${CLAUSES[kind]})`, t.pos);
    }

    const advantage = (adv ?? 0) - (dis ?? 0);
    if (kind === 'luck') {
      if (advPos > 0) this.fail('a luck test has no advantage', advPos, 'BAD_OPTION');
      if (difficulty === null) this.fail('a luck test needs its difficulty: luck vs 15', this.src.length);
    }
    if (kind === 'team' && Math.abs(advantage) > TEAM_MAX_ADVANTAGE) {
      this.fail(`the team game's net advantage must be from -${TEAM_MAX_ADVANTAGE} to ${TEAM_MAX_ADVANTAGE}`, advPos, 'BAD_OPTION');
    }
    return {
      kind,
      modifier: modifier ?? 0,
      // The Kleptonomicon caps the net at 3 dice either way; the rules say so, so it is no error.
      advantage: kind === 'klepto' ? Math.max(-KLEPTO_ADVANTAGE_CAP, Math.min(KLEPTO_ADVANTAGE_CAP, advantage)) : advantage,
      difficulty,
      attributeDie,
      skillDie,
      luckModifier: luckModifier ?? 0,
      luckBonus,
      critAt: critAt ?? WAY_CRIT_AT,
    };
  }
}

/** Parses a named roll; bad text is a DiceError with the column. */
export function parseNamedRoll(expression: string, limits?: Partial<DiceLimits>): NamedRollSpec {
  const l = limits ? withLimits(limits) : DEFAULT_LIMITS;
  if (typeof expression !== 'string') throw new DiceError('SYNTAX', 'the expression must be a string');
  if (expression.length > l.maxLength) {
    throw new DiceError('LIMIT', `the expression is ${expression.length} characters, over maxLength (${l.maxLength})`, l.maxLength, expression.slice(0, l.maxLength + 1), 'maxLength');
  }
  return new NamedParser(expression).parse();
}

function teamOptions(s: NamedRollSpec) {
  return { attributeDie: s.attributeDie, skillDie: s.skillDie, bonus: s.modifier, advantage: s.advantage, luckBonus: s.luckBonus, luckModifier: s.luckModifier };
}
const osrMode = (s: NamedRollSpec) => (s.advantage > 0 ? 'advantage' : s.advantage < 0 ? 'disadvantage' : 'normal') as 'normal' | 'advantage' | 'disadvantage';

/** Rolls a named roll, recording every die. */
export function rollNamed(expression: string, rng: Rng, limits?: Partial<DiceLimits>): NamedRollResult {
  const spec = parseNamedRoll(expression, limits);
  const vs = spec.difficulty;
  const base = { expression, spec };
  switch (spec.kind) {
    case 'duality': {
      const r = rollDuality(rng, { modifier: spec.modifier, difficulty: vs ?? 0, advantage: spec.advantage });
      if (vs !== null) return { ...base, total: r.total, natural: null, success: r.success, outcome: r.outcome, roll: r };
      // Without a difficulty only the dice speak: drop the fields that would need one.
      const { difficulty: _d, success: _s, outcome: _o, ...dice } = r;
      return { ...base, total: r.total, natural: null, success: null, outcome: r.critical ? 'critical' : r.withHope ? 'withHope' : 'withFear', roll: dice };
    }
    case 'way': {
      const r = rollThreeD6(rng, { advantage: spec.advantage });
      const total = r.natural + spec.modifier;
      const outcome = r.natural >= spec.critAt ? 'crit' : r.natural <= WAY_CRIT_FAIL_AT ? 'critFail' : null;
      return { ...base, total, natural: r.natural, success: vs === null ? null : total >= vs, outcome, roll: r };
    }
    case 'klepto': {
      const r = rollKleptoTest(rng, { modifier: spec.modifier, advantage: spec.advantage });
      const outcome = r.critical === 'success' ? 'criticalSuccess' : r.critical === 'failure' ? 'criticalFailure' : null;
      return { ...base, total: r.score, natural: null, success: vs === null ? null : r.score >= vs, outcome, roll: r };
    }
    case 'team': {
      const r = rollTeamTest(rng, teamOptions(spec));
      return { ...base, total: r.total, natural: null, success: vs === null ? null : r.total >= vs, outcome: r.luckBonus > 0 ? 'luckBonus' : null, roll: r };
    }
    case 'osr': {
      const r = rollD20(rng, { modifier: spec.modifier, mode: osrMode(spec) });
      const outcome = r.natural === 20 ? 'natural20' : r.natural === 1 ? 'natural1' : null;
      return { ...base, total: r.total, natural: r.natural, success: vs === null ? null : r.total >= vs, outcome, roll: r };
    }
    case 'luck': {
      const r = rollLuckTest(rng, vs!, spec.modifier);
      return { ...base, total: r.luck, natural: null, success: r.success, outcome: null, roll: r };
    }
  }
}

/** Exact distribution of a named roll's total, its chance of success and of each named outcome. */
export function namedOdds(expression: string, limits?: Partial<DiceLimits>): NamedOddsResult {
  const spec = parseNamedRoll(expression, limits);
  const vs = spec.difficulty;
  let distribution: Pmf;
  let probability: number | null = null;
  const outcomes: Partial<Record<NamedOutcome, number>> = {};
  switch (spec.kind) {
    case 'duality': {
      distribution = dualityTotalDistribution({ modifier: spec.modifier, advantage: spec.advantage });
      const o = dualityOutcomeDistribution({ modifier: spec.modifier, difficulty: vs ?? 0, advantage: spec.advantage });
      if (vs !== null) {
        Object.assign(outcomes, o);
        probability = o.critical + o.successWithHope + o.successWithFear;
      } else {
        // Without a difficulty only the dice matter: which die is higher, or a match.
        outcomes.critical = o.critical;
        outcomes.withHope = o.successWithHope + o.failureWithHope;
        outcomes.withFear = o.successWithFear + o.failureWithFear;
      }
      break;
    }
    case 'way': {
      const natural = threeD6NaturalDistribution(spec.advantage);
      distribution = shiftPmf(natural, spec.modifier);
      outcomes.crit = natural.atLeast(spec.critAt);
      outcomes.critFail = natural.atMost(WAY_CRIT_FAIL_AT);
      break;
    }
    case 'klepto':
      distribution = kleptoTestDistribution({ modifier: spec.modifier, advantage: spec.advantage });
      // The counting die reads 10 only on a critical success and 0 only on a critical failure.
      outcomes.criticalSuccess = distribution.probability(10 + spec.modifier);
      outcomes.criticalFailure = distribution.probability(spec.modifier);
      break;
    case 'team':
      distribution = teamTestDistribution(teamOptions(spec));
      if (spec.luckBonus) outcomes.luckBonus = luckTestProbability(TEAM_LUCK_THRESHOLD, spec.luckModifier);
      break;
    case 'osr': {
      distribution = d20Distribution({ modifier: spec.modifier, mode: osrMode(spec) });
      const natural = d20Distribution({ mode: osrMode(spec) });
      outcomes.natural20 = natural.probability(20);
      outcomes.natural1 = natural.probability(1);
      break;
    }
    case 'luck':
      distribution = shiftPmf(pmfOfDie(20), spec.modifier);
      probability = luckTestProbability(vs!, spec.modifier);
      break;
  }
  if (probability === null && vs !== null) probability = distribution.atLeast(vs);
  return {
    expression,
    spec,
    min: distribution.min,
    max: distribution.max,
    mean: distribution.mean,
    variance: distribution.variance,
    stddev: distribution.stddev,
    distribution,
    truncatedMass: distribution.truncatedMass,
    probability,
    outcomes,
  };
}
