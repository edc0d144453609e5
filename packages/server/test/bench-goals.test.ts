// The server bench's verdict lines (bench/goals.ts): issue 19's goals, each passed or failed from the
// ratios of one run, so a run says at a glance whether the issue is met.
import { describe, expect, it } from 'vitest';
import { goalLines, goalsOf, met, type RunFigures } from '../../../bench/goals.js';

const quiet = [0.4, 0.5, 0.6];
const run = (over: Partial<RunFigures> = {}): RunFigures => ({
  modes: { empty: { throughput: 0.61, p99: 1.4 }, realistic: { throughput: 0.5, p99: 2 } },
  logNoteBytes: { 'realistic, gm': 471, 'realistic, player': 341 },
  replayRatio: 9.2,
  ...over,
});

describe('issue 19 goal lines', () => {
  it('passes every goal met exactly at its threshold (0.50x throughput, 2.00x p99) and says the machine was quiet', () => {
    const lines = goalLines(goalsOf(run()), 'AMD EPYC, 2 cores, Node v20', quiet, quiet);
    expect(lines).toEqual([
      'issue 19 goals on AMD EPYC, 2 cores, Node v20; load average (1, 5, 15 min) before 0.40 0.50 0.60, after 0.40 0.50 0.60',
      'PASS throughput vs bare ws: 0.61x (goal >= 0.50x)',
      'PASS p99 latency vs bare ws: 1.40x (goal <= 2.00x)',
      'PASS realistic throughput vs bare ws: 0.50x (goal >= 0.50x)',
      'PASS realistic p99 latency vs bare ws: 2.00x (goal <= 2.00x)',
      'PASS median log.note delta (realistic, gm): 471 B (goal <= 1,024 B)',
      'PASS median log.note delta (realistic, player): 341 B (goal <= 1,024 B)',
      'PASS replay 100k / 10k transactions: 9.20x (goal <= 12.00x)',
      'issue 19 goals: 7 of 7 met',
    ]);
  });

  it('fails a throughput below 0.5x and a p99 above 2x, names them, and flags a loaded machine', () => {
    const lines = goalLines(goalsOf(run({ modes: { empty: { throughput: 0.49, p99: 2.01 } } })), 'm', [3.1, 2, 1], quiet);
    expect(lines.slice(1, 3)).toEqual(['FAIL throughput vs bare ws: 0.49x (goal >= 0.50x)', 'FAIL p99 latency vs bare ws: 2.01x (goal <= 2.00x)']);
    expect(lines.at(-1)).toBe('issue 19 goals: 3 of 5 met (throughput vs bare ws; p99 latency vs bare ws not); the machine was not quiet (1-minute load above 1), so ratios are noisy');
  });

  it('fails a log.note delta over 1 KB and a replay that is not linear (100k over 12x of 10k)', () => {
    const goals = goalsOf(run({ modes: {}, logNoteBytes: { 'empty, gm': 1025 }, replayRatio: 12.5 }));
    expect(goals.map((g) => [g.name, met(g)])).toEqual([
      ['median log.note delta (empty, gm)', false],
      ['replay 100k / 10k transactions', false],
    ]);
  });

  it('fails a ratio that is not a number (a round that delivered nothing) instead of passing it', () => {
    const goals = goalsOf(run({ modes: { empty: { throughput: NaN, p99: NaN } }, logNoteBytes: {}, replayRatio: null }));
    expect(goals.map(met)).toEqual([false, false]);
  });
});
