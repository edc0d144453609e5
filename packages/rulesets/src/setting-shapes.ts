// The table rules whose values are a record or a list (the Kleptonomicon's
// sixth distance and default movement styles, ADR 118): what such a value must
// hold, field by field, in words, and the value said in words. One check for
// the create form and for table creation on the server, so both refuse the
// same value with the same sentence. Imports only pure rule files (browser entry, ADR 7).
import type { Json } from '@tablekeeper/engine';
import { NAMED_DISTANCES } from './kleptonomicon/distances.js';
import { BASE_STYLE_UNITS } from './kleptonomicon/movement.js';

/** Which structured value a setting holds; absent for a plain choice, number or on/off. */
export type SettingShape = 'sixthDistance' | 'movementStyles';

/** One thing wrong with a structured value: where (a dotted path inside it, '' for the whole) and why, in words. */
export interface ShapeProblem {
  readonly where: string;
  readonly why: string;
}

/** 004 "Distance": each distance doubles the one before except the last, so the sixth reaches past the fifth (16u). */
const LONGEST_NAMED = NAMED_DISTANCES[NAMED_DISTANCES.length - 1]!;
/** A sixth distance's units: past the Shooting Distance, and no more than a move may cover (1000u). */
export const SIXTH_UNITS: readonly [number, number] = [LONGEST_NAMED.units! + 1, 1000];
export const DISTANCE_NAME_MAX = 40;
const KEY = /^[a-z][a-z0-9-]{0,31}$/;

/** 004 "Movement": the styles the text names (the common four, and Fly and Levitate from "Interrupted Movement"). */
export const NAMED_STYLES: readonly string[] = ['walk', 'jump', 'climb', 'swim', 'fly', 'levitate'];
/** A style's name as a sheet takes it (a table's own style too): lower-case letters and dashes. */
export const STYLE_NAME = /^[a-z][a-z-]{0,31}$/;
export const STYLE_VARIANTS = ['half', 'normal', 'double'] as const;
/** As many styles as a sheet may list. */
export const MAX_STYLES = 20;
const VARIANT_FACTOR: { readonly [v: string]: number } = { half: 0.5, normal: 1, double: 2 };
const VARIANT_WORD: { readonly [v: string]: string } = { half: 'Half ', normal: '', double: 'Double ' };

const isRecord = (v: Json | undefined): v is { readonly [k: string]: Json } => v !== null && typeof v === 'object' && !Array.isArray(v);
const shown = (v: Json | undefined): string => (v === undefined || v === '' ? 'nothing' : JSON.stringify(v));
const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

function sixthDistanceProblems(value: Json): ShapeProblem[] {
  if (!isRecord(value)) return [{ where: '', why: `must be a distance with a key, a name and its units; ${shown(value)} is not` }];
  const out: ShapeProblem[] = [];
  for (const k of Object.keys(value)) if (!['id', 'name', 'units'].includes(k)) out.push({ where: k, why: `a distance has a key (id), a name and units, not "${k}"` });
  const id = value['id'];
  const clash = NAMED_DISTANCES.find((d) => d.id === id);
  if (typeof id !== 'string' || !KEY.test(id)) out.push({ where: 'id', why: `its key must be a lower-case word (letters, digits, dashes; at most 32), such as "far-sight"; ${shown(id)} is not` });
  else if (clash !== undefined) out.push({ where: 'id', why: `its key "${id}" is already the ${clash.name}'s` });
  const name = value['name'];
  const twin = typeof name === 'string' ? NAMED_DISTANCES.find((d) => d.name.toLowerCase() === name.trim().toLowerCase()) : undefined;
  if (typeof name !== 'string' || name.trim() === '' || name.length > DISTANCE_NAME_MAX) out.push({ where: 'name', why: `its name must be a text of 1 to ${DISTANCE_NAME_MAX} characters; ${shown(name)} is not` });
  else if (name !== name.trim()) out.push({ where: 'name', why: 'its name must not start or end with a space' });
  else if (twin !== undefined) out.push({ where: 'name', why: `its name "${name}" is already one of the five named distances (${twin.units}u)` });
  const units = value['units'];
  if (units !== null && (typeof units !== 'number' || !Number.isInteger(units) || units < SIXTH_UNITS[0] || units > SIXTH_UNITS[1]))
    out.push({ where: 'units', why: `its units must be a whole number from ${SIXTH_UNITS[0]} to ${SIXTH_UNITS[1]} (past the ${LONGEST_NAMED.name}'s ${LONGEST_NAMED.units}u), or no limit; ${shown(units)} is not` });
  return out;
}

function movementStylesProblems(value: Json): ShapeProblem[] {
  if (!Array.isArray(value)) return [{ where: '', why: `must be a list of movement styles, each a style and its variant; ${shown(value)} is not` }];
  if (value.length === 0) return [{ where: '', why: 'must list at least one movement style' }];
  if (value.length > MAX_STYLES) return [{ where: '', why: `may list at most ${MAX_STYLES} movement styles; ${value.length} is too many` }];
  const out: ShapeProblem[] = [];
  const seen = new Set<string>();
  value.forEach((row: Json, i: number) => {
    const nth = `movement style ${i + 1}`;
    if (!isRecord(row)) {
      out.push({ where: String(i), why: `${nth} must be a style and its variant; ${shown(row)} is not` });
      return;
    }
    for (const k of Object.keys(row)) if (k !== 'style' && k !== 'variant') out.push({ where: `${i}.${k}`, why: `${nth} has a style and a variant, not "${k}"` });
    const style = row['style'];
    if (typeof style !== 'string' || !STYLE_NAME.test(style)) out.push({ where: `${i}.style`, why: `${nth}'s style must be a lower-case name such as ${NAMED_STYLES.map((s) => `"${s}"`).join(', ')}; ${shown(style)} is not` });
    else if (seen.has(style)) out.push({ where: `${i}.style`, why: `${nth} repeats "${style}" (each style once)` });
    else seen.add(style);
    const variant = row['variant'];
    if (variant !== undefined && !(STYLE_VARIANTS as readonly Json[]).includes(variant)) out.push({ where: `${i}.variant`, why: `${nth}'s variant must be one of ${STYLE_VARIANTS.map((v) => `"${v}"`).join(', ')}; ${shown(variant)} is not` });
  });
  return out;
}

/** What is wrong with `value` for a setting of this shape; empty when it is allowed. */
export function shapeProblems(shape: SettingShape, value: Json): ShapeProblem[] {
  return shape === 'sixthDistance' ? sixthDistanceProblems(value) : movementStylesProblems(value);
}

/** What a setting of this shape takes, in words. */
export function shapeAllowedWords(shape: SettingShape): string {
  return shape === 'sixthDistance'
    ? `a distance: a key, a name of at most ${DISTANCE_NAME_MAX} characters, and units from ${SIXTH_UNITS[0]} to ${SIXTH_UNITS[1]} or no limit`
    : `a list of 1 to ${MAX_STYLES} movement styles, each a style (such as ${NAMED_STYLES.join(', ')}) once, and its variant (half, normal or double)`;
}

/** How far a style of this variant moves in a turn (004 "Movement": 4u, Half 2u, Double 8u). */
export const styleUnits = (variant: string | undefined): number => BASE_STYLE_UNITS * (VARIANT_FACTOR[variant ?? 'normal'] ?? 1);

/** One movement style as the text writes it: "Walk (4u)", "Half Jump (2u)", "Double Fly (8u)". */
export function styleWords(style: string, variant: string | undefined): string {
  return `${VARIANT_WORD[variant ?? 'normal'] ?? ''}${capital(style)} (${styleUnits(variant)}u)`;
}

/** A value of this shape in words, never as JSON: "Seeing Distance (no limit)", "Walk (4u), Half Jump (2u)". */
export function shapeValueWords(shape: SettingShape, value: Json | undefined): string {
  if (value === undefined || shapeProblems(shape, value).length > 0) return 'not a value these rules take';
  if (isRecord(value)) {
    const units = value['units'];
    return `${String(value['name'])} (${typeof units === 'number' ? `${units}u` : 'no limit'})`;
  }
  return (Array.isArray(value) ? value : []).map((s) => (isRecord(s) ? styleWords(String(s['style']), typeof s['variant'] === 'string' ? s['variant'] : undefined) : '')).join(', ');
}

/** Two setting values alike (records compared field by field, whatever their key order): a draft back at its default. */
export function sameSettingValue(a: Json | undefined, b: Json | undefined): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameSettingValue(x, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && sameSettingValue(a[k], b[k]));
  }
  return false;
}
