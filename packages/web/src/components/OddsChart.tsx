// A distribution drawn as an SVG bar chart: one bar per outcome, height = its
// exact probability. Bars that satisfy the comparison (if any) are coloured.
import type { ChartPoint } from '../lib/dice.ts';

export type { ChartPoint };

export interface OddsChartProps {
  readonly points: readonly ChartPoint[];
  /** Outcomes counted as a success, for the comparison's colouring. */
  readonly isHit?: ((value: number) => boolean) | undefined;
  readonly title: string;
  /** Cap on drawn bars: wide ranges are merged into buckets so the picture stays readable. */
  readonly maxBars?: number;
}

interface Bar {
  readonly lo: number;
  readonly hi: number;
  readonly p: number;
  readonly hit: boolean;
}

/** Merge neighbouring outcomes into at most `maxBars` buckets (exact masses are summed). */
export function bucket(points: readonly ChartPoint[], maxBars: number, isHit?: (v: number) => boolean): Bar[] {
  const sorted = [...points].sort((a, b) => a.value - b.value);
  if (sorted.length === 0) return [];
  const width = Math.max(1, Math.ceil(sorted.length / maxBars));
  const bars: Bar[] = [];
  for (let i = 0; i < sorted.length; i += width) {
    const slice = sorted.slice(i, i + width);
    const p = slice.reduce((s, x) => s + x.p, 0);
    const hitMass = isHit ? slice.filter((x) => isHit(x.value)).reduce((s, x) => s + x.p, 0) : 0;
    bars.push({ lo: slice[0]!.value, hi: slice[slice.length - 1]!.value, p, hit: isHit !== undefined && hitMass * 2 >= p && p > 0 });
  }
  return bars;
}

export function pct(p: number, digits = 1): string {
  if (p > 0 && p < 0.001) return '<0.1%';
  if (p < 1 && p > 0.999) return '>99.9%';
  return `${(p * 100).toFixed(digits).replace(/\.0$/, '')}%`;
}

export function OddsChart({ points, isHit, title, maxBars = 60 }: OddsChartProps) {
  const bars = bucket(points, maxBars, isHit);
  const W = 320;
  const H = 150;
  const padL = 4;
  const padB = 18;
  const top = Math.max(...bars.map((b) => b.p), 1e-12);
  const bw = (W - padL * 2) / Math.max(1, bars.length);
  const labelEvery = Math.max(1, Math.ceil(bars.length / 8));
  const mode = bars.reduce((m, b) => (b.p > m.p ? b : m), bars[0] ?? { lo: 0, hi: 0, p: 0, hit: false });
  return (
    <figure style={{ margin: 0 }}>
      <svg class="chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${title}. ${bars.length} outcomes drawn; most likely ${rangeLabel(mode)} at ${pct(mode.p)}.`} data-testid="odds-chart">
        <title>{title}</title>
        <line class="axis" x1={padL} x2={W - padL} y1={H - padB} y2={H - padB} />
        {bars.map((b, i) => {
          const h = Math.max(b.p > 0 ? 1 : 0, ((H - padB - 6) * b.p) / top);
          const x = padL + i * bw;
          return (
            <g key={`${b.lo}-${b.hi}`}>
              <rect class={b.hit ? 'bar hit' : 'bar'} x={x + bw * 0.1} width={Math.max(1, bw * 0.8)} y={H - padB - h} height={h}>
                <title>{`${rangeLabel(b)}: ${pct(b.p, 2)}`}</title>
              </rect>
              {i % labelEvery === 0 ? (
                <text x={x + bw / 2} y={H - 4} text-anchor="middle">
                  {b.lo}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

function rangeLabel(b: { lo: number; hi: number }): string {
  return b.lo === b.hi ? String(b.lo) : `${b.lo}–${b.hi}`;
}
