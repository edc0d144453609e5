// `tablekeeper odds "<expr>" [--json]`: exact distribution of a notation.
import type { Command } from 'commander';
import { isNamedRoll, namedOdds, odds, type NamedOddsResult, type NamedOutcome, type OddsResult } from '@tablekeeper/engine';
import { type CliContext, guarded } from '../context.js';
import { OUTCOME_LABELS } from './roll.js';

/**
 * Other modes of `odds` (e.g. `--chase`) plug in here from their own files:
 * each adds its options, and the first whose `handles` says yes runs instead
 * of the notation odds.
 */
export interface OddsExtension {
  readonly options: readonly (readonly [flags: string, description: string])[];
  handles(opts: Record<string, unknown>): boolean;
  run(expr: string | undefined, opts: Record<string, unknown>, ctx: CliContext): void | Promise<void>;
}
export const oddsExtensions: OddsExtension[] = [];

/** Rows in the text histogram; wider distributions are bucketed. */
export const HISTOGRAM_ROWS = 40;
const BAR_WIDTH = 40;

export function oddsJson(o: OddsResult): Record<string, unknown> {
  const distribution: Record<string, number> = {};
  const cdf: Record<string, number> = {};
  let c = 0;
  for (const [v, p] of o.distribution.entries()) {
    distribution[v] = p;
    c += p;
    cdf[v] = c;
  }
  return {
    expression: o.expression,
    min: o.min,
    max: o.max,
    mean: o.mean,
    variance: o.variance,
    stddev: o.stddev,
    truncatedMass: o.truncatedMass,
    ...(o.probability !== null ? { probability: o.probability } : {}),
    distribution,
    cdf,
  };
}

const pct = (p: number): string => (p * 100 >= 0.01 || p === 0 ? `${(p * 100).toFixed(2)}%` : `${p.toExponential(2)}`);

export function histogram(o: OddsResult): string[] {
  const d = o.distribution;
  const span = d.max - d.min + 1;
  const width = Math.ceil(span / HISTOGRAM_ROWS);
  const rows: [string, number][] = [];
  for (let lo = d.min; lo <= d.max; lo += width) {
    const hi = Math.min(d.max, lo + width - 1);
    let p = 0;
    for (let v = lo; v <= hi; v++) p += d.probability(v);
    rows.push([width === 1 ? String(lo) : `${lo}..${hi}`, p]);
  }
  const top = Math.max(...rows.map(([, p]) => p));
  const label = Math.max(...rows.map(([l]) => l.length));
  return rows.map(([l, p]) => `${l.padStart(label)} ${pct(p).padStart(9)} ${'#'.repeat(top > 0 ? Math.round((p / top) * BAR_WIDTH) : 0)}`);
}

export function describeOdds(o: OddsResult): string {
  const lines = [o.expression];
  if (o.probability !== null) lines.push(`probability ${o.probability.toPrecision(6)} (${pct(o.probability)})`);
  lines.push(`mean ${o.mean.toFixed(4)}  sd ${o.stddev.toFixed(4)}  range ${o.min}..${o.max}`);
  if (o.truncatedMass > 0) lines.push(`(explosions expanded until negligible: ${o.truncatedMass.toExponential(2)} of the probability is beyond ${o.max})`);
  lines.push(...histogram(o));
  return lines.join('\n') + '\n';
}

/** `--json` of a named roll: the notation's fields, plus the chance of each named outcome. */
export function namedOddsJson(o: NamedOddsResult): Record<string, unknown> {
  return { ...oddsJson(o), kind: o.spec.kind, outcomes: o.outcomes };
}

export function describeNamedOdds(o: NamedOddsResult): string {
  const lines = describeOdds(o).trimEnd().split('\n');
  const rows = (Object.entries(o.outcomes) as [NamedOutcome, number][]).map(([k, p]) => `  ${OUTCOME_LABELS[k]}: ${p.toPrecision(6)} (${pct(p)})`);
  // Outcomes go right after the probability line (or the expression), before mean and histogram.
  lines.splice(o.probability !== null ? 2 : 1, 0, ...rows);
  return lines.join('\n') + '\n';
}

export function registerOdds(program: Command, ctx: CliContext): void {
  const cmd = program
    .command('odds')
    .description('exact odds of dice notation or a named roll, e.g. "3d6 vs 13", "10d10>=8", "4d6kh3", "duality+2 vs 15"')
    .argument('[expr]', 'dice notation or a named roll (see docs/dice.md)')
    .option('--json', 'print JSON');
  for (const ext of oddsExtensions) for (const [flags, description] of ext.options) cmd.option(flags, description);
  cmd.action((expr: string | undefined, opts: Record<string, unknown>) =>
    guarded(ctx, async () => {
      const ext = oddsExtensions.find((x) => x.handles(opts));
      if (ext) return ext.run(expr, opts, ctx);
      if (expr === undefined) {
        ctx.io.err('tablekeeper: odds needs an expression, e.g. tablekeeper odds "3d6 vs 13"\n');
        ctx.exitCode = 2;
        return;
      }
      if (isNamedRoll(expr)) {
        const n = namedOdds(expr);
        ctx.io.out(opts['json'] ? JSON.stringify(namedOddsJson(n)) + '\n' : describeNamedOdds(n));
        return;
      }
      const o = odds(expr);
      ctx.io.out(opts['json'] ? JSON.stringify(oddsJson(o)) + '\n' : describeOdds(o));
    }),
  );
}
