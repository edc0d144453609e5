// Issue 19's goals, judged from one run of the server bench: each goal is a ratio (or a size)
// measured in that run, so the verdict lines say at a glance whether the issue is met on this
// machine, and under what load (a loaded machine makes every ratio noisier; the lead decides on a quiet run).

export interface Goal {
  /** What is measured, as the bench names it ("realistic p99 latency vs bare ws"). */
  readonly name: string;
  readonly value: number;
  readonly goal: number;
  /** 'min': value >= goal passes; 'max': value <= goal passes. */
  readonly kind: 'min' | 'max';
  readonly unit: 'x' | ' B';
}

export interface ModeFigures {
  /** Median over the rounds of ours / bare ws. */
  readonly throughput: number;
  readonly p99: number;
}

export interface RunFigures {
  readonly modes: { readonly [mode: string]: ModeFigures };
  /** Median bytes of a `log.note` delta, per receiver ("gm", "player"), per mode. */
  readonly logNoteBytes: { readonly [modeAndReceiver: string]: number };
  /** Replay time of 100k transactions over 10k (null: not measured in this run). */
  readonly replayRatio: number | null;
}

/** Issue 19's thresholds. */
export const GOALS = { throughput: 0.5, p99: 2, logNoteBytes: 1024, replayRatio: 12 } as const;

/** The goals one run measured (a mode left out of BENCH_MODES is simply absent). */
export function goalsOf(run: RunFigures): Goal[] {
  const out: Goal[] = [];
  for (const [mode, m] of Object.entries(run.modes)) {
    const prefix = mode === 'empty' ? '' : `${mode} `;
    out.push({ name: `${prefix}throughput vs bare ws`, value: m.throughput, goal: GOALS.throughput, kind: 'min', unit: 'x' });
    out.push({ name: `${prefix}p99 latency vs bare ws`, value: m.p99, goal: GOALS.p99, kind: 'max', unit: 'x' });
  }
  for (const [k, bytes] of Object.entries(run.logNoteBytes)) out.push({ name: `median log.note delta (${k})`, value: bytes, goal: GOALS.logNoteBytes, kind: 'max', unit: ' B' });
  if (run.replayRatio !== null) out.push({ name: 'replay 100k / 10k transactions', value: run.replayRatio, goal: GOALS.replayRatio, kind: 'max', unit: 'x' });
  return out;
}

/** A measurement that is not a number (a round that delivered nothing) fails its goal rather than passing by accident. */
export const met = (g: Goal): boolean => Number.isFinite(g.value) && (g.kind === 'min' ? g.value >= g.goal : g.value <= g.goal);

const fmt = (g: Goal, v: number) => (g.unit === 'x' ? `${v.toFixed(2)}x` : `${Math.round(v).toLocaleString('en-US')} B`);

/** The verdict block: one PASS/FAIL line per goal, then the count, with the machine and its load around the run. */
export function goalLines(goals: readonly Goal[], machine: string, loadBefore: readonly number[], loadAfter: readonly number[]): string[] {
  const load = (xs: readonly number[]) => xs.map((x) => x.toFixed(2)).join(' ');
  const lines = [`issue 19 goals on ${machine}; load average (1, 5, 15 min) before ${load(loadBefore)}, after ${load(loadAfter)}`];
  for (const g of goals) lines.push(`${met(g) ? 'PASS' : 'FAIL'} ${g.name}: ${fmt(g, g.value)} (goal ${g.kind === 'min' ? '>=' : '<='} ${fmt(g, g.goal)})`);
  const n = goals.filter(met).length;
  lines.push(`issue 19 goals: ${n} of ${goals.length} met${n === goals.length ? '' : ` (${goals.filter((g) => !met(g)).map((g) => g.name).join('; ')} not)`}${loadBefore[0]! > 1 || loadAfter[0]! > 1 ? '; the machine was not quiet (1-minute load above 1), so ratios are noisy' : ''}`);
  return lines;
}
