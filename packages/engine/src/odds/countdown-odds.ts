// Exact countdown odds: absorbing Markov chains over a per-roll outcome
// distribution. No sampling. A countdown's state is its value; a chase's state
// is the pair (progress, consequence). Each action roll moves the state by the
// ticks its outcome gives (000, "Dynamic Countdown Advancement" and "Chase
// Countdowns"); 0 absorbs.
import type { Result } from '../core/types.js';
import { dualityOutcomeDistribution } from '../dice/index.js';
import { DYNAMIC_ADVANCEMENT, MAX_COUNTDOWN_VALUE, OUTCOMES, ruleErr } from '../countdowns/model.js';

/** Any per-roll outcome PMF (e.g. the five duality outcomes). */
export type OutcomePmf = { readonly [outcome: string]: number };

/** Where per-roll outcome probabilities come from: a PMF, or an action roll's numbers. */
export type OutcomeSource =
  | { readonly pmf: OutcomePmf }
  | { readonly modifier: number; readonly difficulty: number; readonly advantage?: number };

/** Ticks per outcome: a named column of the advancement table, or one's own map. */
export type Advance = 'standard' | 'progress' | 'consequence' | { readonly [outcome: string]: number };

export interface OddsOptions {
  /** Stop the per-roll distribution after this many rolls (default 10,000; at most 1,000,000). */
  readonly maxRolls?: number;
  /** Stop once the mass not yet absorbed is below this (default 1e-15). */
  readonly epsilon?: number;
}

export interface CountdownOdds {
  readonly value: number;
  /** byRoll[k - 1] = P(it triggers on roll k). */
  readonly byRoll: readonly number[];
  /** within[k - 1] = P(it has triggered within k rolls). */
  readonly within: readonly number[];
  /** Probability it ever triggers (exact, from the chain, not from byRoll). */
  readonly pTrigger: number;
  /** Expected rolls until it triggers (exact solve; Infinity if it may never trigger). */
  readonly expectedRolls: number;
  /** Mass still untriggered after byRoll.length rolls (0 when the chain ends in finitely many rolls). */
  readonly remainingMass: number;
}

export interface ChaseOdds {
  readonly progress: number;
  readonly consequence: number;
  /** P(the PCs' progress countdown reaches 0 on a roll where the other does not). */
  readonly progressFirst: number;
  /** P(the other party's consequence countdown reaches 0 first). */
  readonly consequenceFirst: number;
  /** P(both reach 0 on the same roll: a success with Fear with both at 1). */
  readonly sameRoll: number;
  /** P(the chase never ends) - nonzero only for a PMF that can tick neither. */
  readonly never: number;
  /** Expected rolls until the chase ends (Infinity if it may never end). */
  readonly expectedRolls: number;
  /** Per roll k (index k - 1): P(the chase ends on roll k with each result). */
  readonly byRoll: { readonly progressFirst: readonly number[]; readonly consequenceFirst: readonly number[]; readonly sameRoll: readonly number[] };
  readonly remainingMass: number;
}

const DEFAULT_MAX_ROLLS = 10_000;
const MAX_ROLLS_LIMIT = 1_000_000;
const DEFAULT_EPSILON = 1e-15;
/** A PMF must sum to 1 within this. */
const PMF_TOLERANCE = 1e-9;

type Branch = { readonly p: number; readonly a: number; readonly b: number };

function okv<T>(value: T): Result<T> {
  return { ok: true, value };
}

/** The outcome PMF as (outcome, probability) pairs, checked. */
function resolveSource(source: OutcomeSource): Result<[string, number][]> {
  if (source === null || typeof source !== 'object') return ruleErr('ODDS_BAD_SOURCE', 'give { pmf } or { modifier, difficulty, advantage }', 'source');
  let pmf: OutcomePmf;
  if ('pmf' in source) {
    pmf = source.pmf;
    if (pmf === null || typeof pmf !== 'object') return ruleErr('ODDS_BAD_PMF', 'pmf must map outcomes to probabilities', 'source.pmf');
  } else {
    const { modifier, difficulty } = source;
    const advantage = source.advantage ?? 0;
    if (!Number.isInteger(modifier) || Math.abs(modifier) > 100) return ruleErr('ODDS_BAD_ROLL', 'modifier must be an integer from -100 to 100', 'source.modifier');
    if (!Number.isInteger(difficulty) || difficulty < 1 || difficulty > 100) return ruleErr('ODDS_BAD_ROLL', 'difficulty must be an integer from 1 to 100', 'source.difficulty');
    if (!Number.isInteger(advantage) || Math.abs(advantage) > 10) return ruleErr('ODDS_BAD_ROLL', 'advantage must be an integer from -10 to 10', 'source.advantage');
    pmf = dualityOutcomeDistribution({ modifier, difficulty, advantage });
  }
  const pairs = Object.entries(pmf);
  if (pairs.length === 0 || pairs.length > 64) return ruleErr('ODDS_BAD_PMF', 'a pmf has 1 to 64 outcomes', 'source.pmf');
  let sum = 0;
  for (const [k, p] of pairs) {
    if (typeof p !== 'number' || !Number.isFinite(p) || p < 0) return ruleErr('ODDS_BAD_PMF', `probability of "${k.slice(0, 30)}" must be a finite number >= 0`, `source.pmf.${k}`);
    sum += p;
  }
  if (Math.abs(sum - 1) > PMF_TOLERANCE) return ruleErr('ODDS_BAD_PMF', `probabilities must sum to 1 (within ${PMF_TOLERANCE}), got ${sum}`, 'source.pmf');
  return okv(pairs);
}

function ticksOf(advance: Advance, outcome: string, path: string): Result<number> {
  let t: number | undefined;
  if (advance === 'standard') t = 1;
  else if (advance === 'progress' || advance === 'consequence') {
    const row = (DYNAMIC_ADVANCEMENT as { readonly [k: string]: { progress: number; consequence: number } | undefined })[outcome];
    if (row === undefined) return ruleErr('ODDS_UNKNOWN_OUTCOME', `"${outcome.slice(0, 30)}" is not one of ${OUTCOMES.join(', ')}`, path);
    t = row[advance];
  } else if (advance !== null && typeof advance === 'object') {
    t = Object.prototype.hasOwnProperty.call(advance, outcome) ? advance[outcome] : undefined;
    if (t === undefined) return ruleErr('ODDS_UNKNOWN_OUTCOME', `no ticks given for outcome "${outcome.slice(0, 30)}"`, path);
  } else return ruleErr('ODDS_BAD_ADVANCE', "advance is 'standard', 'progress', 'consequence' or a map of ticks per outcome", path);
  if (!Number.isInteger(t) || t < 0 || t > MAX_COUNTDOWN_VALUE) return ruleErr('ODDS_BAD_ADVANCE', `ticks per outcome are integers from 0 to ${MAX_COUNTDOWN_VALUE}`, path);
  return okv(t);
}

function checkValue(v: unknown, path: string): Result<number> {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_COUNTDOWN_VALUE) {
    return ruleErr('ODDS_BAD_VALUE', `a countdown value is an integer from 1 to ${MAX_COUNTDOWN_VALUE}`, path);
  }
  return okv(v);
}

function checkOptions(o: OddsOptions | undefined): Result<{ maxRolls: number; epsilon: number }> {
  const maxRolls = o?.maxRolls ?? DEFAULT_MAX_ROLLS;
  const epsilon = o?.epsilon ?? DEFAULT_EPSILON;
  if (!Number.isInteger(maxRolls) || maxRolls < 1 || maxRolls > MAX_ROLLS_LIMIT) return ruleErr('ODDS_BAD_OPTION', `maxRolls is an integer from 1 to ${MAX_ROLLS_LIMIT}`, 'options.maxRolls');
  if (!(epsilon >= 0 && epsilon < 1)) return ruleErr('ODDS_BAD_OPTION', 'epsilon is a number in [0, 1)', 'options.epsilon');
  return okv({ maxRolls, epsilon });
}

/** Merges outcomes with the same ticks (fewer branches, same chain). */
function mergeBranches(list: Branch[]): Branch[] {
  const byKey = new Map<string, Branch>();
  for (const br of list) {
    if (br.p === 0) continue;
    const k = `${br.a},${br.b}`;
    const prev = byKey.get(k);
    byKey.set(k, prev === undefined ? br : { p: prev.p + br.p, a: br.a, b: br.b });
  }
  return [...byKey.values()];
}

/**
 * Odds for one countdown at `value` (1-100) that ticks per roll as `advance`
 * says, each roll's outcome drawn from `source`.
 */
export function countdownOdds(countdown: { readonly value: number; readonly advance: Advance }, source: OutcomeSource, options?: OddsOptions): Result<CountdownOdds> {
  const v = checkValue(countdown?.value, 'countdown.value');
  if (!v.ok) return v;
  const opts = checkOptions(options);
  if (!opts.ok) return opts;
  const pairs = resolveSource(source);
  if (!pairs.ok) return pairs;
  const raw: Branch[] = [];
  for (const [o, p] of pairs.value) {
    const t = ticksOf(countdown.advance, o, `countdown.advance.${o}`);
    if (!t.ok) return t;
    raw.push({ p, a: t.value, b: 0 });
  }
  const branches = mergeBranches(raw);
  const value = v.value;
  let stay = 0;
  for (const br of branches) if (br.a === 0) stay += br.p;
  const moving = branches.filter((br) => br.a > 0);

  // One buffer for everything (typed-array allocations dominate at these sizes):
  // [0, n) expected rolls, then two mass vectors swapped each roll.
  const n = value + 1;
  const buf = new Float64Array(3 * n);
  const E = 0;
  const ba = moving.map((br) => br.a);
  const bp = moving.map((br) => br.p);
  const aa = branches.map((br) => br.a);
  const ap = branches.map((br) => br.p);
  // Expected rolls: E[x] = (1 + sum_{a>0} p_a E[x - a]) / (1 - stay), E[<= 0] = 0.
  const never = moving.length === 0;
  for (let x = 1; x <= value; x++) {
    if (never) {
      buf[E + x] = Infinity;
      continue;
    }
    let sum = 1;
    for (let k = 0; k < ba.length; k++) {
      const nx = x - ba[k]!;
      if (nx > 0) sum += bp[k]! * buf[E + nx]!;
    }
    buf[E + x] = sum / (1 - stay);
  }

  // The per-roll distribution: push the untriggered mass forward one roll at a time.
  const byRoll: number[] = [];
  const within: number[] = [];
  let mass = n;
  let next = 2 * n;
  buf[mass + value] = 1;
  let remaining = 1;
  let cumulative = 0;
  const { maxRolls, epsilon } = opts.value;
  while (remaining > epsilon && byRoll.length < maxRolls && !never) {
    buf.fill(0, next, next + n);
    let absorbed = 0;
    let left = 0;
    for (let x = 1; x <= value; x++) {
      const m = buf[mass + x]!;
      if (m === 0) continue;
      for (let k = 0; k < aa.length; k++) {
        const nx = x - aa[k]!;
        const q = m * ap[k]!;
        if (nx <= 0) absorbed += q;
        else {
          buf[next + nx] = buf[next + nx]! + q;
          left += q;
        }
      }
    }
    [mass, next] = [next, mass];
    cumulative += absorbed;
    byRoll.push(absorbed);
    within.push(cumulative);
    remaining = left;
  }
  const expectedRolls = buf[E + value]!;
  return okv({ value, byRoll, within, pTrigger: never ? 0 : 1, expectedRolls, remainingMass: never ? 1 : remaining });
}

/** P(triggered within n rolls) from computed odds; beyond the computed horizon it is a lower bound. */
export function triggerWithin(odds: CountdownOdds, n: number): number {
  if (n <= 0) return 0;
  if (odds.within.length === 0) return 0;
  return odds.within[Math.min(n, odds.within.length) - 1]!;
}

/** Ticks per outcome for the two countdowns of a chase: [progress, consequence]. */
export type ChaseAdvance = { readonly [outcome: string]: readonly [number, number] };

/**
 * Odds for a chase ("Chase Countdowns", 000): the PCs' progress countdown at
 * `progress` and the other party's consequence countdown at `consequence`
 * (1-100 each). Every action roll ticks both per the Dynamic Countdown
 * Advancement table (or `advance`, a map outcome -> [progress, consequence]).
 */
export function chaseOdds(
  chase: { readonly progress: number; readonly consequence: number; readonly advance?: ChaseAdvance },
  source: OutcomeSource,
  options?: OddsOptions,
): Result<ChaseOdds> {
  const pv = checkValue(chase?.progress, 'chase.progress');
  if (!pv.ok) return pv;
  const cv = checkValue(chase.consequence, 'chase.consequence');
  if (!cv.ok) return cv;
  const opts = checkOptions(options);
  if (!opts.ok) return opts;
  const pairs = resolveSource(source);
  if (!pairs.ok) return pairs;
  const raw: Branch[] = [];
  for (const [o, p] of pairs.value) {
    if (chase.advance === undefined) {
      const a = ticksOf('progress', o, `chase.advance.${o}`);
      if (!a.ok) return a;
      const b = ticksOf('consequence', o, `chase.advance.${o}`);
      if (!b.ok) return b;
      raw.push({ p, a: a.value, b: b.value });
    } else {
      const row = Object.prototype.hasOwnProperty.call(chase.advance, o) ? chase.advance[o] : undefined;
      if (!Array.isArray(row) || row.length !== 2) return ruleErr('ODDS_UNKNOWN_OUTCOME', `no [progress, consequence] ticks for outcome "${o.slice(0, 30)}"`, `chase.advance.${o}`);
      const a = ticksOf({ t: row[0] as number }, 't', `chase.advance.${o}.0`);
      if (!a.ok) return a;
      const b = ticksOf({ t: row[1] as number }, 't', `chase.advance.${o}.1`);
      if (!b.ok) return b;
      raw.push({ p, a: a.value, b: b.value });
    }
  }
  const branches = mergeBranches(raw);
  const P = pv.value;
  const C = cv.value;
  const W = C + 1;
  const size = (P + 1) * W;
  const K = branches.length;
  const ba = branches.map((br) => br.a);
  const bb = branches.map((br) => br.b);
  const bq = branches.map((br) => br.p);
  // One buffer (typed-array allocations dominate at these sizes): four solve
  // tables, then two mass vectors swapped each roll. State (p, c) is p * W + c.
  const buf = new Float64Array(6 * size);
  const PROG = 0;
  const CONS = size;
  const BOTH = 2 * size;
  const EXPT = 3 * size;

  // Absorption probabilities and expected rolls, solved exactly: every move goes
  // to a state <= the current one in both coordinates, so (p, c) ascending is a
  // topological order; a self-loop (no ticks) divides out as 1 / (1 - stay).
  for (let p = 1; p <= P; p++) {
    for (let c = 1; c <= C; c++) {
      let stay = 0;
      let sp = 0;
      let sc = 0;
      let sb = 0;
      let se = 1;
      for (let k = 0; k < K; k++) {
        const a = ba[k]!;
        const b = bb[k]!;
        const q = bq[k]!;
        const np = p - a;
        const nc = c - b;
        if (a === 0 && b === 0) stay += q;
        else if (np <= 0 && nc <= 0) sb += q;
        else if (np <= 0) sp += q;
        else if (nc <= 0) sc += q;
        else {
          const j = np * W + nc;
          sp += q * buf[PROG + j]!;
          sc += q * buf[CONS + j]!;
          sb += q * buf[BOTH + j]!;
          se += q * buf[EXPT + j]!;
        }
      }
      const i = p * W + c;
      const go = 1 - stay;
      if (go <= 0) {
        buf[EXPT + i] = Infinity;
        continue;
      }
      buf[PROG + i] = sp / go;
      buf[CONS + i] = sc / go;
      buf[BOTH + i] = sb / go;
      buf[EXPT + i] = se / go;
    }
  }
  const start = P * W + C;
  const pFirst = buf[PROG + start]!;
  const cFirst = buf[CONS + start]!;
  const sRoll = buf[BOTH + start]!;
  const never = Math.max(0, 1 - pFirst - cFirst - sRoll);
  // A chain that can stall forever somewhere has infinite expectation.
  const expectedRolls = never > 1e-12 ? Infinity : buf[EXPT + start]!;

  // Per-roll distribution. Mass only moves down and left, so each roll scans
  // the box below the highest occupied state.
  const bp: number[] = [];
  const bc: number[] = [];
  const bs: number[] = [];
  let mass = 4 * size;
  let next = 5 * size;
  buf[mass + start] = 1;
  let remaining = 1;
  let topP = P;
  const { maxRolls, epsilon } = opts.value;
  while (remaining > epsilon && bp.length < maxRolls) {
    buf.fill(0, next, next + (topP + 1) * W);
    let ap = 0;
    let ac = 0;
    let as = 0;
    let left = 0;
    let newTop = 0;
    for (let p = 1; p <= topP; p++) {
      for (let c = 1; c <= C; c++) {
        const m = buf[mass + p * W + c]!;
        if (m === 0) continue;
        for (let k = 0; k < K; k++) {
          const np = p - ba[k]!;
          const nc = c - bb[k]!;
          const q = m * bq[k]!;
          if (np <= 0 && nc <= 0) as += q;
          else if (np <= 0) ap += q;
          else if (nc <= 0) ac += q;
          else {
            const j = next + np * W + nc;
            buf[j] = buf[j]! + q;
            left += q;
            if (np > newTop) newTop = np;
          }
        }
      }
    }
    [mass, next] = [next, mass];
    topP = newTop;
    bp.push(ap);
    bc.push(ac);
    bs.push(as);
    remaining = left;
    if (never > 1e-12 && remaining - never <= epsilon) break; // only the stalled mass is left
  }
  return okv({
    progress: P,
    consequence: C,
    progressFirst: pFirst,
    consequenceFirst: cFirst,
    sameRoll: sRoll,
    never,
    expectedRolls,
    byRoll: { progressFirst: bp, consequenceFirst: bc, sameRoll: bs },
    remainingMass: remaining,
  });
}

export interface FinalEventOdds {
  /** The starting values of the cycles still to run, current cycle first (e.g. 7, 6, ... 1). */
  readonly cycles: readonly number[];
  /** byRoll[k - 1] = P(the final event happens on roll k). */
  readonly byRoll: readonly number[];
  readonly within: readonly number[];
  /** Exact: the sum of each cycle's expected rolls (cycles are independent: ticks past 0 do not carry over). */
  readonly expectedRolls: number;
  /** Mass not placed in byRoll (each cycle's tail below epsilon, and anything past maxRolls). */
  readonly remainingMass: number;
}

/**
 * Odds for a decreasing countdown's major event (000 "Increasing or
 * Decreasing"): it runs from `value` (default `start`), then resets to
 * start - 1, start - 2, ... 1, and the reset that would reach 0 is the final
 * event. The number of rolls is the sum of independent cycles, so its
 * distribution is their convolution.
 */
export function decreasingOdds(
  countdown: { readonly start: number; readonly value?: number; readonly advance: Advance },
  source: OutcomeSource,
  options?: OddsOptions,
): Result<FinalEventOdds> {
  const s = checkValue(countdown?.start, 'countdown.start');
  if (!s.ok) return s;
  const v = checkValue(countdown.value ?? countdown.start, 'countdown.value');
  if (!v.ok) return v;
  const opts = checkOptions(options);
  if (!opts.ok) return opts;
  const cycles = [v.value];
  for (let k = s.value - 1; k >= 1; k--) cycles.push(k);
  let dist: number[] = [1]; // dist[n] = P(n rolls so far)
  let expected = 0;
  for (const c of cycles) {
    const o = countdownOdds({ value: c, advance: countdown.advance }, source, options);
    if (!o.ok) return o;
    expected += o.value.expectedRolls;
    const len = Math.min(dist.length + o.value.byRoll.length, opts.value.maxRolls + 1);
    const next = new Array<number>(len).fill(0);
    for (let i = 0; i < dist.length; i++) {
      const a = dist[i]!;
      if (a === 0) continue;
      for (let j = 0; j < o.value.byRoll.length && i + j + 1 < len; j++) next[i + j + 1]! += a * o.value.byRoll[j]!;
    }
    dist = next;
  }
  const byRoll = dist.slice(1);
  const within: number[] = [];
  let acc = 0;
  for (const p of byRoll) within.push((acc += p));
  return okv({ cycles, byRoll, within, expectedRolls: expected, remainingMass: Math.max(0, 1 - acc) });
}
