// defineRuleset: a rule system is a list of engine modules plus named,
// documented settings (rules README: "make each one a named setting").
import { DEFAULT_LOG_LIMIT, LOG_LIMIT_SETTING, type Json, type Module, type SheetModel } from '@tablekeeper/engine';
import type { SettingShape } from './setting-shapes.js';

export interface SettingDef {
  /** Namespaced key, e.g. 'daggerheart.critAddsMax'. */
  readonly key: string;
  readonly default: Json;
  /** One sentence: what changes when a table overrides it. */
  readonly description: string;
  /** Where the default comes from (rule text file + heading, or the rules README). */
  readonly source: string;
  /** The only values a table may choose, when the setting is a choice among a few (with `range`, a number in it is allowed too). */
  readonly allowed?: readonly (string | number | boolean | null)[];
  /** For a number setting: the smallest and largest value a table may choose (whole numbers when the default is one). */
  readonly range?: readonly [number, number];
  /** Its name on the Table rules panel, when the key's words are not enough ("dyingMode" -> "Dying mode"). */
  readonly title?: string;
  /** A choice's effect in a few words, keyed by the value (String(value)): the panel's option and the log line. */
  readonly choiceWords?: { readonly [value: string]: string };
  /** A value that is a record or a list, checked field by field (ADR 118); set only when the table is created. */
  readonly shape?: SettingShape;
}

export interface RulesetDefinition {
  readonly id: string;
  readonly name: string;
  /** The ruleset's own modules; the registry puts the core module first. */
  readonly modules: readonly Module[];
  readonly settings: readonly SettingDef[];
  /** Its character sheet (issue 17): `character.sheet.set` validates against it; the registry adds the module. */
  readonly sheet?: SheetModel;
}

/** Settings every table has, whatever the ruleset. */
export const CORE_SETTINGS: readonly SettingDef[] = [
  {
    key: LOG_LIMIT_SETTING,
    default: DEFAULT_LOG_LIMIT,
    description: 'How many log entries the table keeps; the oldest are dropped first.',
    source: 'engine limit (docs/adr/0003-undo-and-views.md)',
    range: [1, 10000],
  },
];

const ID = /^[a-z0-9][a-z0-9-]{0,31}$/;

/** Check and freeze a ruleset definition; a malformed one is a programming error and throws at import. */
export function defineRuleset(def: RulesetDefinition): RulesetDefinition {
  if (!ID.test(def.id)) throw new Error(`ruleset id "${def.id}" must be lower-case letters, digits and dashes`);
  const keys = new Set(CORE_SETTINGS.map((s) => s.key));
  for (const s of def.settings) {
    if (keys.has(s.key)) throw new Error(`ruleset ${def.id}: setting ${s.key} is defined twice`);
    keys.add(s.key);
  }
  if (def.modules.some((m) => m.id === 'core')) throw new Error(`ruleset ${def.id}: the registry adds the core module itself`);
  return Object.freeze({ ...def, modules: Object.freeze([...def.modules]), settings: Object.freeze([...def.settings]) });
}
