// Pure Daggerheart maths for the trackers (no World, browser-safe): damage
// severity against thresholds, an Armor Slot's one-step reduction, and the
// odds of each duality outcome a roll request shows before the roll. These
// are published facts text 000 does not print; each is a documented setting
// (docs/rulesets/daggerheart.md).

/** HP a hit marks: 0 (none), 1 (minor), 2 (major), 3 (severe), 4 (massive, optional rule). */
export type Severity = 0 | 1 | 2 | 3 | 4;

export interface Thresholds {
  readonly major: number;
  readonly severe: number;
}

/** Severity of `amount` damage: at or above Severe 3, at or above Major 2, any other damage 1. */
export function severityOf(amount: number, t: Thresholds, massiveDamage = false): Severity {
  if (amount <= 0) return 0;
  if (massiveDamage && amount >= 2 * t.severe) return 4;
  if (amount >= t.severe) return 3;
  if (amount >= t.major) return 2;
  return 1;
}

/** One Armor Slot lowers the severity by one step (a minor hit then marks nothing). */
export function armored(severity: Severity): Severity {
  return severity === 0 ? 0 : ((severity - 1) as Severity);
}

/** A PC's Evasion as an adversary's attack reads it (ADR 40): a whole number on the sheet, else none yet (null). */
export function evasionOf(stats: { readonly [k: string]: unknown }): number | null {
  const v = stats['evasion'];
  return typeof v === 'number' && Number.isInteger(v) ? v : null;
}

/**
 * What a character's sheet still lacks that a rule reads, by field, in words (review 9: an invited PC's form
 * showed a made-up "evasion 10"). Only a PC is attacked against its Evasion; an adversary has a Difficulty instead.
 */
export function sheetNeeds(c: { readonly name: string; readonly kind: string; readonly stats: { readonly [k: string]: unknown } }): { readonly [field: string]: string } {
  if (c.kind !== 'pc' || evasionOf(c.stats) !== null) return {};
  return { evasion: `not set yet: an adversary's attack on ${c.name} needs it` };
}

export const SEVERITY_WORDS: Record<Severity, string> = { 0: 'no damage', 1: 'minor', 2: 'major', 3: 'severe', 4: 'massive' };

/** A tracker as slots: how many are marked out of how many. */
export interface Track {
  readonly marked: number;
  readonly slots: number;
}

export type TrackName = 'hp' | 'stress' | 'armor';
export const TRACKS: readonly TrackName[] = ['hp', 'stress', 'armor'];
export const TRACK_WORDS: Record<TrackName, string> = { hp: 'HP', stress: 'Stress', armor: 'Armor' };

/**
 * Sheet keys: `hpMarked` of `hpMax` slots, `stressMarked` of `stressMax`,
 * `armorMarked` of `armorMax`. Marked slots count up, unlike an HP pool that
 * counts down, so they do not share the generic `hp` key other screens read.
 */
export const TRACK_KEYS: Record<TrackName, { readonly marked: string; readonly slots: string }> = {
  hp: { marked: 'hpMarked', slots: 'hpMax' },
  stress: { marked: 'stressMarked', slots: 'stressMax' },
  armor: { marked: 'armorMarked', slots: 'armorMax' },
};

const wholeAtLeast = (v: unknown, min: number): number | null => (typeof v === 'number' && Number.isInteger(v) && v >= min ? v : null);

/** Reads a track off a sheet, with `defaultSlots` when the sheet gives none; marked is clamped into the slots. */
export function trackOf(stats: { readonly [k: string]: unknown }, track: TrackName, defaultSlots: number): Track {
  const keys = TRACK_KEYS[track];
  const slots = wholeAtLeast(stats[keys.slots], 0) ?? defaultSlots;
  const marked = wholeAtLeast(stats[keys.marked], 0) ?? 0;
  return { marked: Math.min(marked, slots), slots };
}

/** Thresholds from a sheet (`major`, `severe`), or null when either is missing or they are out of order. */
export function thresholdsOf(stats: { readonly [k: string]: unknown }): Thresholds | null {
  const major = wholeAtLeast(stats['major'], 1);
  const severe = wholeAtLeast(stats['severe'], 1);
  return major === null || severe === null || severe < major ? null : { major, severe };
}

/** How many d6 a roll throws keeping the highest (Help an Ally on advantage), or 0 when the ordinary rule applies. */
export function keptHighestDice(sources: number, helpers: number, settings: { readonly advantageDiceStack: boolean; readonly helpKeepsHighest: boolean }): number {
  return !settings.advantageDiceStack && settings.helpKeepsHighest && helpers > 0 && sources > 1 ? sources : 0;
}

/**
 * Exact odds of each duality outcome when `dice` d6 are thrown and the highest
 * is added: P(highest = k) = (k^n - (k-1)^n) / 6^n. Matching Hope and Fear
 * dice are a critical whatever the total.
 */
export function keptHighestOdds(modifier: number, difficulty: number, dice: number): { critical: number; successWithHope: number; successWithFear: number; failureWithHope: number; failureWithFear: number } {
  const out = { critical: 0, successWithHope: 0, successWithFear: 0, failureWithHope: 0, failureWithFear: 0 };
  const top = Array.from({ length: 7 }, (_, k) => (k === 0 ? 0 : (k ** dice - (k - 1) ** dice) / 6 ** dice));
  for (let hope = 1; hope <= 12; hope++) {
    for (let fear = 1; fear <= 12; fear++) {
      if (hope === fear) {
        out.critical += 1 / 144;
        continue;
      }
      let succeed = 0;
      for (let k = 1; k <= 6; k++) if (hope + fear + modifier + k >= difficulty) succeed += top[k]!;
      const key = hope > fear ? 'WithHope' : 'WithFear';
      out[`success${key}`] += succeed / 144;
      out[`failure${key}`] += (1 - succeed) / 144;
    }
  }
  return out;
}

/** Chances a duality roll is a critical, with Hope or with Fear, which do not depend on the difficulty (2d12: 12, 66 and 66 of 144). */
export const DIFFICULTY_FREE_ODDS = { critical: 12 / 144, withHope: 66 / 144, withFear: 66 / 144 } as const;
