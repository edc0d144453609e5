// Adapter between the dice tray and the engine's dice module (placeholder until it lands).
import type { ChartPoint } from '../components/OddsChart.tsx';

export type TrayError = { readonly kind: 'parse' | 'limit' | 'other'; readonly message: string; readonly position: number };
export type TrayResult<T> = { ok: true; value: T } | { ok: false; error: TrayError };
export interface TrayDie { readonly value: number; readonly sides: number; readonly kept: boolean }
export interface TrayRoll { readonly expr: string; readonly total: number; readonly dice: readonly TrayDie[]; readonly outcome?: string; readonly success?: boolean; readonly summary: string }
export interface TrayOdds {
  readonly expr: string;
  readonly min: number;
  readonly max: number;
  readonly mean: number;
  readonly stddev: number;
  readonly points: readonly ChartPoint[];
  readonly probability?: number;
  readonly comparisonText: string;
  readonly isHit?: (v: number) => boolean;
  readonly truncated: number;
}
export function rollOf(expr: string): TrayResult<TrayRoll> {
  return { ok: false, error: { kind: 'other', message: `dice engine not available for ${expr}`, position: 0 } };
}
export function oddsOf(expr: string): TrayResult<TrayOdds> {
  return { ok: false, error: { kind: 'other', message: `dice engine not available for ${expr}`, position: 0 } };
}
