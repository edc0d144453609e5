// A table setting in words: its name, its values, the heading it belongs to,
// and why a value is refused. Shared by the `table.setting` command (checks
// and log lines) and the GM's Table rules panel, so both say the same thing.
// Imports types and the pure shape checks only: the browser entry re-exports it (ADR 7).
import type { Json } from '@tablekeeper/engine';
import type { SettingDef } from './ruleset.js';
import { shapeAllowedWords, shapeProblems, shapeValueWords, type ShapeProblem } from './setting-shapes.js';

/** The value kinds a setting may hold, as `typeof` says them ('null' and 'array' apart). */
export const settingKind = (v: Json | undefined): string => (v === undefined ? 'undefined' : v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** Its name on screen: the declared title, else the key's last part in words ("dyingMode" -> "Dying mode"). */
export function settingTitle(def: Pick<SettingDef, 'key' | 'title'>): string {
  if (def.title !== undefined) return def.title;
  const tail = def.key.slice(def.key.indexOf('.') + 1);
  const words = tail.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A value in words: a choice's declared words, on / off, the number or text itself, or a structured value's words. */
export function settingValueWords(def: Pick<SettingDef, 'choiceWords' | 'shape'>, value: Json | undefined): string {
  if (def.shape !== undefined) return shapeValueWords(def.shape, value);
  const said = def.choiceWords?.[String(value)];
  if (said !== undefined) return said;
  if (value === true) return 'on';
  if (value === false) return 'off';
  if (value === null || value === undefined) return 'not set';
  if (typeof value === 'string') return `"${value}"`;
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

/** Whether the panel may change it: structured values (lists, records) are set when the table is created. */
export const settingIsEditable = (def: Pick<SettingDef, 'default'>): boolean => !['object', 'array'].includes(settingKind(def.default));

/** Whole numbers only, unless the default itself is a fraction (a share such as 0.5). */
const wholeOnly = (def: Pick<SettingDef, 'default'>): boolean => typeof def.default !== 'number' || Number.isInteger(def.default);

/** The values a setting takes, in words ("one of "dying", "unconscious""; "a whole number from 1 to 40"). */
export function settingAllowedWords(def: Pick<SettingDef, 'default' | 'allowed' | 'range' | 'shape'>): string {
  if (def.shape !== undefined) return shapeAllowedWords(def.shape);
  const parts: string[] = [];
  if (def.allowed !== undefined) parts.push(def.allowed.length === 1 ? `"${String(def.allowed[0])}"` : `one of ${def.allowed.map((a) => `"${String(a)}"`).join(', ')}`);
  if (def.range !== undefined) parts.push(`${wholeOnly(def) ? 'a whole number' : 'a number'} from ${def.range[0]} to ${def.range[1]}`);
  if (parts.length > 0) return parts.join(' or ');
  const kind = settingKind(def.default);
  return kind === 'boolean' ? 'on or off (true or false)' : kind === 'number' ? 'a number' : kind === 'string' ? 'a text' : kind === 'null' ? 'any value' : `a ${kind}`;
}

/** What is wrong with a structured value, field by field (where inside it, and why); empty when allowed or not structured. */
export const settingProblems = (def: Pick<SettingDef, 'shape'>, value: Json): ShapeProblem[] => (def.shape === undefined ? [] : shapeProblems(def.shape, value));

/** Why `value` is refused for `def`, as a sentence naming the setting and what it takes; null when it is allowed. */
export function settingRefusal(def: SettingDef, value: Json): string | null {
  if (def.shape !== undefined) {
    const problems = shapeProblems(def.shape, value);
    // A whole-value problem reads on from the rule's name ("... must list at least one"); a field's follows a colon.
    return problems.length === 0 ? null : `the table rule "${settingTitle(def)}" (${def.key})${problems[0]!.where === '' ? ' ' : ': '}${problems.map((p) => p.why).join('; ')}`;
  }
  const allowedHere = (): boolean => {
    if (def.allowed !== undefined || def.range !== undefined) {
      if (def.allowed?.some((a) => a === value) === true) return true;
      if (def.range === undefined || typeof value !== 'number' || !Number.isFinite(value)) return false;
      return (!wholeOnly(def) || Number.isInteger(value)) && value >= def.range[0] && value <= def.range[1];
    }
    if (def.default === null) return true;
    return settingKind(value) === settingKind(def.default) && (typeof value !== 'number' || Number.isFinite(value));
  };
  return allowedHere() ? null : `the table rule "${settingTitle(def)}" (${def.key}) must be ${settingAllowedWords(def)}; ${JSON.stringify(value)} is not`;
}

/** The log line of a change: the choice's words when declared, else the rule's name with the new and old values. */
export function settingChangedSentence(def: SettingDef, value: Json, from: Json | undefined): string {
  const said = def.choiceWords?.[String(value)];
  if (said !== undefined) return `Table rule changed: ${said}.`;
  return `Table rule changed: ${settingTitle(def)} is now ${settingValueWords(def, value)} (was ${settingValueWords(def, from)}).`;
}

/** Where a rule comes from, without the rule files' stored names ("002_….txt" becomes "the rule text"). */
export const settingSourceWords = (def: Pick<SettingDef, 'source'>): string => def.source.replace(/\b\d{3}_[0-9a-f]+\.txt\b/g, 'the rule text');

const README_PART = /rules\/?\s?README(\.md)?,?\s*("[^"]*")?/g;

/** The heading the panel files it under: the rule text's first quoted heading, else the rules README's dice readings, else the table itself. */
export function settingGroup(def: Pick<SettingDef, 'source'>): string {
  const heading = /"([^"]+)"/.exec(def.source.replace(README_PART, ''));
  if (heading !== null) return heading[1]!;
  return /rules\/?\s?README/.test(def.source) ? 'Dice and readings (rules README)' : 'The table';
}
