// Table rules after creation (audit 13 item 2, ADR 99): the GM changes one of
// the ruleset's declared settings with `table.setting`, checked against that
// declaration, as an event, so it is logged in words, replays and undoes.
import { z } from 'zod';
import { AUDIENCE_ALL, appendLog, catalogOf, defineCommand, err, ErrorCode, ok, type DefinedCommand, type Json, type Module } from '@tablekeeper/engine';
import { reducersOf, stored, type Evolve } from '@tablekeeper/engine/events';
import type { SettingDef } from './ruleset.js';
import { settingChangedSentence, settingIsEditable, settingRefusal, settingTitle, settingValueWords } from './setting-words.js';

export const TABLE_RULES_ID = 'tableRules';

/** The longest text a setting may hold (every declared text choice is a short word). */
const MAX_SETTING_TEXT = 64;

/** The module's one event, as stored: the value it had before rides along for the log and for old readers. */
export interface TableSettingChanged {
  readonly type: 'table.settingChanged';
  readonly key: string;
  readonly value: Json;
  readonly from: Json;
}

/** `table.setting` for a ruleset whose declared settings (core ones first) are `settings`. */
export function tableRulesModule(settings: readonly SettingDef[]): Module {
  const byKey = new Map(settings.map((s) => [s.key, s] as const));
  const defined: DefinedCommand<z.ZodType>[] = [
    defineCommand('table.setting', {
      summary: "Change one of the table's rules (a ruleset setting) to an allowed value; the default puts it back",
      who: 'gm',
      label: 'change a table rule',
      input: z.strictObject({
        key: z.string().min(1).max(80).meta({ description: 'the setting, as the ruleset names it ("36th-way.dyingMode")' }),
        value: z.union([z.string().max(MAX_SETTING_TEXT), z.number(), z.boolean(), z.null()]).meta({ description: 'its new value: one of the allowed choices, a number in its range, or on/off' }),
      }),
      decide(world, p) {
        const def = byKey.get(p.key);
        if (def === undefined) return err(ErrorCode.NOT_FOUND, `this table's rules have no setting "${p.key}"`, 'key');
        if (!settingIsEditable(def)) return err(ErrorCode.INVALID_VALUE, `the table rule "${settingTitle(def)}" is set only when the table is created`, 'key');
        const refused = settingRefusal(def, p.value);
        if (refused !== null) return err(ErrorCode.INVALID_VALUE, refused.charAt(0).toUpperCase() + refused.slice(1), 'value');
        const from = Object.hasOwn(world.settings, def.key) ? world.settings[def.key]! : def.default;
        if (from === p.value) return err(ErrorCode.INVALID_VALUE, `the table rule "${settingTitle(def)}" is already ${settingValueWords(def, from)}`, 'value');
        return ok([stored<TableSettingChanged>({ type: 'table.settingChanged', key: def.key, value: p.value, from })]);
      },
    }),
  ];
  const evolve: Evolve<TableSettingChanged> = {
    'table.settingChanged': (w, e) => {
      const def = byKey.get(e.key);
      const next = { ...w, settings: { ...w.settings, [e.key]: e.value } };
      const line = def === undefined ? `Table rule changed: ${e.key}.` : settingChangedSentence(def, e.value, e.from);
      return appendLog(next, { audience: AUDIENCE_ALL, kind: 'table.settingChanged', text: line });
    },
  };
  return {
    id: TABLE_RULES_ID,
    commands: Object.fromEntries(defined.map((d) => [d.declaration.type, d.handler])),
    catalog: catalogOf(...defined.map((d) => d.declaration)),
    reducers: reducersOf(evolve),
  };
}
