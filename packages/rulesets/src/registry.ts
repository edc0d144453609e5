// The rulesets this build knows, one engine per ruleset (built once), and
// table creation with the ruleset's setting defaults merged and checked.
import { bestiaryModule, coreModule, countdownsModule, createEngine, customConditionsModule, revealWhenActsModule, err, foesModule, ok, requestModule, sheetJsonSchema, sheetModule, timerModule, type Engine, type Json, type Result, type Table } from '@tablekeeper/engine';
import { ruleset as thirtySixthWay } from './36th-way/index.js';
import { ruleset as daggerheart } from './daggerheart/index.js';
import { ruleset as kleptonomicon } from './kleptonomicon/index.js';
import { ruleset as osr } from './osr/index.js';
import { capabilitiesOf } from './capabilities.js';
import { CORE_SETTINGS, type RulesetDefinition, type SettingDef } from './ruleset.js';
import { requestHookOf } from './requests.js';
import { settingProblems, settingRefusal } from './setting-words.js';
import { tableRulesModule } from './table-rules.js';
import { statBlockOf } from './stat-blocks.js';
import { ruleset as teams } from './teams/index.js';

const RULESETS: readonly RulesetDefinition[] = [daggerheart, osr, thirtySixthWay, teams, kleptonomicon];
const byId = new Map(RULESETS.map((r) => [r.id, r] as const));
const engines = new Map<string, Engine>();

export const rulesetIds: readonly string[] = RULESETS.map((r) => r.id);

export interface RulesetInfo {
  readonly id: string;
  readonly name: string;
  /** Core settings first, then the ruleset's. */
  readonly settings: readonly SettingDef[];
}

export function rulesetInfo(id: string): RulesetInfo | null {
  const r = byId.get(id);
  return r === undefined ? null : { id: r.id, name: r.name, settings: [...CORE_SETTINGS, ...r.settings] };
}

export function rulesetDefinition(id: string): RulesetDefinition | null {
  return byId.get(id) ?? null;
}

/** The engine for a ruleset: the core module, the countdowns module, the ruleset's modules, then its bestiary (cached). */
export function engineFor(id: string): Engine | null {
  const cached = engines.get(id);
  if (cached !== undefined) return cached;
  const r = byId.get(id);
  if (r === undefined) return null;
  // Countdowns are system-agnostic (rules README, 000): every table gets them unless the ruleset brings its own.
  const countdowns = r.modules.some((m) => m.id === countdownsModule.id) ? [] : [countdownsModule];
  const sheet = r.sheet === undefined ? [] : [sheetModule(r.sheet)];
  // Every table keeps a bestiary of the ruleset's stat blocks (issue 20), GM-only.
  // ...and players' requests, approved by the GM into the ruleset's own commands, and the turn timer (ADR 29).
  const engine = createEngine([coreModule, tableRulesModule([...CORE_SETTINGS, ...r.settings]), ...countdowns, ...r.modules, ...sheet, bestiaryModule(statBlockOf(id)), requestModule(requestHookOf(id)), timerModule, foesModule, customConditionsModule, revealWhenActsModule({ characterFollows: capabilitiesOf(id).foeVisibilityOnCharacter })]);
  engines.set(id, engine);
  return engine;
}

/** A ruleset's character sheet as JSON Schema (defaults and `playerEditable` on each field), for forms; null if unknown or sheetless. */
export function sheetSchemaFor(id: string): { readonly ruleset: string; readonly schema: Record<string, unknown>; readonly playerEditable: readonly string[] } | null {
  const sheet = byId.get(id)?.sheet;
  return sheet === undefined ? null : { ruleset: id, schema: sheetJsonSchema(sheet), playerEditable: [...sheet.playerEditable] };
}

/** Settings with defaults merged; an unknown key or a value of the wrong kind is a typed error. */
export function resolveSettings(id: string, overrides: { readonly [key: string]: Json } = {}): Result<{ [key: string]: Json }> {
  const info = rulesetInfo(id);
  if (info === null) return err('UNKNOWN_RULESET', `no ruleset "${id}" (known: ${rulesetIds.join(', ')})`, 'rulesetId');
  const out: { [key: string]: Json } = {};
  for (const s of info.settings) out[s.key] = s.default;
  for (const [key, value] of Object.entries(overrides)) {
    const def = info.settings.find((s) => s.key === key);
    if (def === undefined) return err('UNKNOWN_SETTING', `ruleset ${id} has no setting "${key}"`, `settings.${key}`);
    const refused = settingRefusal(def, value);
    // A structured value's path goes down to the field at fault (settings.kleptonomicon.sixthDistance.units).
    const where = settingProblems(def, value)[0]?.where ?? '';
    if (refused !== null) return err('INVALID_SETTING', refused, `settings.${key}${where === '' ? '' : `.${where}`}`);
    out[key] = value;
  }
  return ok(out);
}

export function createTableFor(id: string, input: { readonly tableId: string; readonly name: string; readonly settings?: { readonly [key: string]: Json } }): Result<Table> {
  const settings = resolveSettings(id, input.settings);
  if (!settings.ok) return settings;
  const engine = engineFor(id)!;
  return ok(engine.createTable({ tableId: input.tableId, name: input.name, rulesetId: id, settings: settings.value }));
}
