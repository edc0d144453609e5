// The dice tray's adapter over the engine's notation: parse errors with their
// column, rolls with every die, exact odds as chart points. Rolls use the
// engine's fair Rng (crypto.getRandomValues, unbiased), never Math.random.
import { compileDice, DiceError, fairRng, isNamedRoll, NAMED_OUTCOME_WORDS, namedDice, namedOdds, odds, parseDice, parseNamedRoll, rollDice, rollNamed, TABLE_ROLL_LIMITS, type CompareOp, type Json, type World } from '@tablekeeper/engine';

export type TrayError = { readonly kind: 'parse' | 'limit' | 'other'; readonly message: string; readonly position: number };
export type TrayResult<T> = { ok: true; value: T } | { ok: false; error: TrayError };
export interface TrayDie {
  readonly value: number;
  readonly sides: number;
  readonly kept: boolean;
  readonly exploded?: boolean;
}
/** A labelled number of the notation (`1d20 + 5 [STR]`): what it added and why. */
export interface TrayConstant {
  readonly value: number;
  readonly label: string;
}
export interface TrayRoll {
  /** Stable key for lists. */
  readonly key?: string;
  /** Who rolled it (table rolls only). */
  readonly who?: string;
  readonly label?: string;
  /** Read by the GM only (and the roller, for a player's roll for the GM). */
  readonly secret?: boolean;
  readonly expr: string;
  readonly total: number;
  readonly dice: readonly TrayDie[];
  /** Labelled numbers, in the order written (shown after the dice). */
  readonly constants?: readonly TrayConstant[];
  readonly outcome?: string;
  readonly success?: boolean;
  /** One line for the table log. */
  readonly summary: string;
}
/** One bar of a distribution chart: a value and its exact probability. */
export interface ChartPoint {
  readonly value: number;
  readonly p: number;
}

export interface TrayOdds {
  readonly expr: string;
  readonly min: number;
  readonly max: number;
  readonly mean: number;
  readonly stddev: number;
  readonly points: readonly ChartPoint[];
  /** P(comparison holds), for `expr op expr`. */
  readonly probability?: number;
  readonly comparisonText: string;
  readonly isHit?: (v: number) => boolean;
  readonly truncated: number;
}

const rng = fairRng();

/** `+5 STR`, `-1 cover`: a labelled number as the tray and the summary show it. */
export function constantText(c: TrayConstant): string {
  return `${c.value < 0 ? '-' : '+'}${Math.abs(c.value)} ${c.label}`;
}

/** The labelled numbers of a roll or a log entry's data, dropping anything malformed. */
function constantsOf(list: unknown): TrayConstant[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((x: unknown) => {
    const o = x !== null && typeof x === 'object' ? (x as { value?: unknown; label?: unknown }) : null;
    return o && typeof o.value === 'number' && typeof o.label === 'string' ? [{ value: o.value, label: o.label }] : [];
  });
}

/** `lead` = spaces trimmed off the front, so the caret lines up with what the user typed. */
function toError(e: unknown, lead = 0): TrayError {
  if (e instanceof DiceError) {
    return { kind: e.code === 'SYNTAX' ? 'parse' : e.code === 'LIMIT' ? 'limit' : 'other', message: e.message, position: e.position + lead };
  }
  return { kind: 'other', message: e instanceof Error ? e.message : String(e), position: 0 };
}

function holds(op: CompareOp, a: number, b: number): boolean {
  switch (op) {
    case '>=':
      return a >= b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '<':
      return a < b;
    case '=':
      return a === b;
    case '!=':
      return a !== b;
  }
}

export function rollOf(expr: string): TrayResult<TrayRoll> {
  try {
    if (isNamedRoll(expr.trim())) {
      // Off a table (the landing page): a named roll rolled here with the fair dice.
      const n = rollNamed(expr.trim(), rng, TABLE_ROLL_LIMITS);
      const dice = namedDice(n).map((d) => ({ value: d.value, sides: d.sides, kept: d.kept }));
      const outcome = n.success === null ? undefined : n.success ? 'success' : 'failure';
      const words = n.outcome === null ? '' : ` (${NAMED_OUTCOME_WORDS[n.outcome]})`;
      const vs = n.spec.difficulty;
      const summary = `${n.total}${vs === null ? '' : ` vs ${vs}: ${outcome ?? ''}`}${words} [${dice.map((d) => (d.kept ? String(d.value) : `~${d.value}~`)).join(' ')}]`;
      return { ok: true, value: { expr: n.expression, total: n.total, dice, ...(outcome ? { outcome, success: n.success === true } : {}), summary } };
    }
    const r = rollDice(expr.trim(), rng);
    const dice = r.dice.flatMap((g) => g.dice.map((d) => ({ value: d.value, sides: g.sides, kept: d.kept })));
    const cmp = r.comparison;
    const outcome = cmp ? (cmp.success ? 'success' : 'failure') : undefined;
    // Each term's faces (a success counted with *), after its label when it has one; the comment last.
    const faces = r.dice
      .map((g) => {
        const f = g.dice.map((d) => { const v = `${d.value}${d.outcome === 'success' ? '*' : d.outcome === 'failure' ? '_' : ''}`; return d.kept ? v : `~${v}~`; }).join(' ');
        return g.label === undefined ? f : `${g.label}: ${f}`;
      })
      .filter((f) => f !== '')
      .join(' ');
    const constants = constantsOf(r.constants);
    const labelled = constants.map((c) => ` ${constantText(c)}`).join('');
    const summary = `${r.total}${cmp ? ` ${cmp.op} ${cmp.target}: ${outcome}` : ''}${faces ? ` [${faces}]` : ''}${labelled}${r.comment === undefined ? '' : ` # ${r.comment}`}`;
    return { ok: true, value: { expr: r.expression, total: r.total, dice, ...(constants.length > 0 ? { constants } : {}), ...(outcome ? { outcome, success: cmp!.success } : {}), summary } };
  } catch (e) {
    return { ok: false, error: toError(e, expr.length - expr.trimStart().length) };
  }
}

/** A system's named roll ("duality+2 vs 15 adv"): its total's distribution, success and outcome chances. */
function namedOddsOf(text: string): TrayOdds {
  const o = namedOdds(text, TABLE_ROLL_LIMITS);
  const vs = o.spec.difficulty;
  const outcomes = Object.entries(o.outcomes)
    .filter(([, p]) => p !== undefined && p > 0)
    .map(([k, p]) => `${NAMED_OUTCOME_WORDS[k as keyof typeof NAMED_OUTCOME_WORDS] ?? k} ${(p! * 100).toFixed(1)}%`)
    .join(' · ');
  return {
    expr: text,
    min: o.min,
    max: o.max,
    mean: o.mean,
    stddev: o.stddev,
    points: o.distribution.entries().map(([value, p]) => ({ value, p })),
    ...(o.probability !== null ? { probability: o.probability } : {}),
    comparisonText: [vs === null ? '' : `chance of ${vs} or more`, outcomes].filter((x) => x !== '').join(' · '),
    ...(vs !== null && o.spec.kind !== 'duality' ? { isHit: (v: number) => v >= vs } : {}),
    truncated: o.truncatedMass,
  };
}

export function oddsOf(expr: string): TrayResult<TrayOdds> {
  const text = expr.trim();
  try {
    if (isNamedRoll(text)) return { ok: true, value: namedOddsOf(text) };
    const ast = parseDice(text);
    const o = odds(text);
    const points = o.distribution.entries().map(([value, p]) => ({ value, p }));
    let isHit: ((v: number) => boolean) | undefined;
    let comparisonText = '';
    if (ast.kind === 'compare') {
      const right = ast.right;
      comparisonText = ast.form === 'vs' ? `chance of ${text.slice(right.pos, right.end).trim()} or more` : `chance of ${text.slice(ast.opPos).trim()}`;
      // Colour the bars only when the target is a plain number; a dice target has no single cut-off.
      if (right.kind === 'number') isHit = (v) => holds(ast.op, v, right.value);
    }
    return {
      ok: true,
      value: {
        expr: text,
        min: o.min,
        max: o.max,
        mean: o.mean,
        stddev: o.stddev,
        points,
        ...(o.probability !== null ? { probability: o.probability } : {}),
        comparisonText,
        ...(isHit ? { isHit } : {}),
        truncated: o.truncatedMass,
      },
    };
  } catch (e) {
    return { ok: false, error: toError(e, expr.length - expr.trimStart().length) };
  }
}

/**
 * Checks notation against the table-roll limits before sending `dice.roll`, so
 * the error shows in place at once (the server checks again and rolls).
 */
export function tableRollError(expr: string): TrayError | null {
  const text = expr.trim();
  if (text === '') return { kind: 'parse', message: 'type some dice, e.g. 2d6+3', position: 0 };
  if (expr.length > (TABLE_ROLL_LIMITS.maxLength ?? Infinity)) return { kind: 'limit', message: `a table roll may be at most ${TABLE_ROLL_LIMITS.maxLength} characters`, position: TABLE_ROLL_LIMITS.maxLength ?? 0 };
  try {
    if (isNamedRoll(text)) parseNamedRoll(text, TABLE_ROLL_LIMITS);
    else compileDice(text, TABLE_ROLL_LIMITS);
    return null;
  } catch (e) {
    return toError(e, expr.length - expr.trimStart().length);
  }
}

/** A rejection from the server as a tray error: the protocol's 0-based column, else the "(column N)" (1-based) in the message. */
export function trayErrorFromMessage(message: string, column?: number): TrayError {
  const m = /\(column (\d+)\)/.exec(message);
  return { kind: 'other', message: message.replace(/\s*\(column \d+\)/, ''), position: column ?? (m ? Number(m[1]) - 1 : 0) };
}

const obj = (j: Json | undefined): { readonly [k: string]: Json } | null => (j !== null && typeof j === 'object' && !Array.isArray(j) ? j : null);

/** The table's recorded rolls this viewer may read (the server already filtered the log), newest first. */
export function tableRolls(world: World, limit: number): TrayRoll[] {
  const out: TrayRoll[] = [];
  const log = Array.isArray(world.log) ? world.log : [];
  for (let i = log.length - 1; i >= 0 && out.length < limit; i--) {
    const e = log[i]!;
    const d = obj(e.data);
    if (e.kind !== 'dice.rolled' || d === null || typeof d['total'] !== 'number' || typeof d['notation'] !== 'string') continue;
    const dice: TrayDie[] = (Array.isArray(d['dice']) ? d['dice'] : []).flatMap((x) => {
      const o = obj(x);
      return o && typeof o['value'] === 'number' && typeof o['sides'] === 'number' ? [{ value: o['value'], sides: o['sides'], kept: o['kept'] !== false, exploded: o['exploded'] === true }] : [];
    });
    const cmp = obj(d['comparison']);
    const success = cmp ? cmp['success'] === true : undefined;
    const constants = constantsOf(d['constants']);
    out.push({
      key: `${e.tx}-${i}`,
      ...(typeof d['who'] === 'string' ? { who: d['who'] } : {}),
      ...(typeof d['label'] === 'string' ? { label: d['label'] } : {}),
      secret: e.audience?.kind !== 'all',
      expr: d['notation'],
      total: d['total'],
      dice,
      ...(constants.length > 0 ? { constants } : {}),
      ...(success !== undefined ? { outcome: success ? 'success' : 'failure', success } : {}),
      summary: e.text,
    });
  }
  return out;
}
