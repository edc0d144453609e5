// The GM's "Table rules" panel (audit 13 item 2, ADR 99): every setting the
// ruleset declares, filed under the rule text's heading, in words, with the
// control its values call for; a change is the `table.setting` command (one
// undo step, logged for everyone). GM only, loaded when first opened. The
// landing page's "Advanced: table rules" (ADR 111) shows the same rules and
// controls, kept in the create form until the table is made; there a rule whose
// value is a record or a list (ADR 118) has its own editor, which the panel
// shows only in words.
import { useEffect, useState } from 'preact/hooks';
import type { Json, World } from '@tablekeeper/engine';
import { sameSettingValue, settingAllowedWords, settingGroup, settingIsEditable, settingRefusal, settingSourceWords, settingTitle, settingValueWords, type SettingDef } from '@tablekeeper/rulesets/browser';
import { listRulesets } from '../net/api.ts';
import { sentenceOf } from '../lib/words.ts';
import { ShapeEditor } from './TableRuleShapes.tsx';
import type { Send } from './types.ts';

/** The declarations per ruleset, fetched once per page (they change only with a new server build). */
let declared: Promise<{ readonly [rulesetId: string]: readonly SettingDef[] }> | null = null;

function loadDeclared(): Promise<{ readonly [rulesetId: string]: readonly SettingDef[] }> {
  declared ??= listRulesets().then((r) => {
    if (!r.ok) {
      declared = null;
      throw new Error(r.message);
    }
    return Object.fromEntries(r.value.map((s) => [s.id, Array.isArray(s['settings']) ? (s['settings'] as SettingDef[]) : []]));
  });
  return declared;
}

const NUMBER = 'a number';
const idOf = (key: string): string => `rule-${key.replace(/[^A-Za-z0-9]/g, '-')}`;

export function TableRulesPanel({ world, send }: { world: World; send: Send }) {
  const [defs, setDefs] = useState<readonly SettingDef[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    loadDeclared().then(
      (all) => live && setDefs(all[world.rulesetId] ?? []),
      (e: unknown) => live && setFailed(e instanceof Error ? e.message : 'the table server cannot be reached'),
    );
    return () => {
      live = false;
    };
  }, [world.rulesetId]);
  if (failed !== null) return <p class="error small" role="alert">The table rules could not be loaded: {failed}.</p>;
  if (defs === null) return <p role="status" class="small muted">Loading the table rules…</p>;
  const apply: Apply = async (key, value) => {
    const r = await send({ type: 'table.setting', key, value });
    return r.ok ? null : sentenceOf(r.rejection);
  };
  return <RulesList testId="table-rules" creating={false} defs={defs} values={world.settings} apply={apply} intro="Where the rules are silent or offer a choice, this table's reading. A change applies from the next roll, is logged for everyone and can be undone." />;
}

/**
 * The create form's rules (ADR 111): the ruleset's declarations from the landing page's list, each change kept in
 * `values` (a rule back at its default is left out, so the server keeps the ruleset's own) and sent with the
 * create request.
 */
export function CreateRules({ defs, values, onChange }: { defs: readonly SettingDef[]; values: { readonly [key: string]: Json }; onChange: (next: { [key: string]: Json }) => void }) {
  const apply: Apply = async (key, value) => {
    const next = { ...values };
    const def = defs.find((d) => d.key === key);
    if (def !== undefined && sameSettingValue(value, def.default)) delete next[key];
    else next[key] = value;
    onChange(next);
    return null;
  };
  return <RulesList testId="create-rules-list" creating defs={defs} values={values} apply={apply} intro="Where the rules are silent or offer a choice, this table's reading from the start. The GM can change them later under Settings, Table rules, except the few chosen here only." />;
}

/** Where a rule's change goes (the table, or the create form): null when taken, else why not in a sentence. */
type Apply = (key: string, value: Json) => Promise<string | null>;

function RulesList({ testId, creating, defs, values, apply, intro }: { testId: string; creating: boolean; defs: readonly SettingDef[]; values: { readonly [key: string]: Json }; apply: Apply; intro: string }) {
  const groups = new Map<string, SettingDef[]>();
  for (const d of defs) groups.set(settingGroup(d), [...(groups.get(settingGroup(d)) ?? []), d]);
  return (
    <div class="rules-list" data-testid={testId}>
      <p class="small muted">{intro}</p>
      {defs.length === 0 ? <p class="small muted">These rules have no settings to choose.</p> : null}
      {[...groups].map(([group, list]) => (
        <fieldset key={group}>
          <legend>{group}</legend>
          {list.map((d) => (
            <Rule key={d.key} def={d} creating={creating} value={Object.hasOwn(values, d.key) ? values[d.key]! : d.default} apply={apply} />
          ))}
        </fieldset>
      ))}
    </div>
  );
}

function Rule({ def, creating, value, apply }: { def: SettingDef; creating: boolean; value: Json; apply: Apply }) {
  const [problem, setProblem] = useState<string | null>(null);
  const set = async (v: Json): Promise<void> => {
    if (typeof v === 'number' && !Number.isFinite(v)) {
      setProblem(`Type ${settingAllowedWords(def)} for "${settingTitle(def)}".`);
      return;
    }
    const refused = settingRefusal(def, v);
    if (refused !== null) {
      setProblem(refused.charAt(0).toUpperCase() + refused.slice(1) + '.');
      return;
    }
    setProblem(await apply(def.key, v));
  };
  const id = idOf(def.key);
  const atDefault = sameSettingValue(value, def.default);
  const editable = settingIsEditable(def);
  // A record or a list (ADR 118) is chosen only on the create form, with its own editor and its errors by each field.
  const shaped = creating && !editable && def.shape !== undefined;
  return (
    <div class="table-rule" data-testid={id} style={{ marginBottom: '10px' }}>
      <div class="row small">
        {shaped ? (
          <strong id={`${id}-title`}>{settingTitle(def)}</strong>
        ) : (
          <label for={id}>
            <strong>{settingTitle(def)}</strong>
          </label>
        )}
        {shaped ? null : <Control id={id} def={def} value={value} set={set} />}
        {atDefault ? (
          <span class="muted">(the default)</span>
        ) : editable || shaped ? (
          <button type="button" class="small" onClick={() => (shaped ? void apply(def.key, def.default) : void set(def.default))}>
            Back to the default ({settingValueWords(def, def.default)})
          </button>
        ) : null}
      </div>
      {shaped && def.shape !== undefined ? (
        <>
          <ShapeEditor id={id} def={def} shape={def.shape} value={value} apply={(v) => void apply(def.key, v)} />
          <p class="small muted" style={{ margin: '2px 0' }}>
            Chosen here only: it cannot be changed once the table is made.
          </p>
        </>
      ) : null}
      <p class="small" style={{ margin: '2px 0' }}>
        {def.description}
      </p>
      <p class="small muted" style={{ margin: 0 }}>
        Takes {settingAllowedWords(def)}. Source: {settingSourceWords(def)}.
      </p>
      {problem === null ? null : (
        <p class="error small" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}

/** On/off, a choice list (with "a number" when a range also applies), or a number with its range; structured values are shown only. */
function Control({ id, def, value, set }: { id: string; def: SettingDef; value: Json; set: (v: Json) => Promise<void> }) {
  const [numberPicked, setNumberPicked] = useState(false);
  if (!settingIsEditable(def))
    return (
      <span id={id}>
        <span class="muted">chosen when the table was created:</span> {settingValueWords(def, value)}
      </span>
    );
  if (typeof def.default === 'boolean' && def.allowed === undefined)
    return (
      <label class="row" style={{ fontWeight: 400 }}>
        <input id={id} type="checkbox" checked={value === true} onChange={(e) => void set(e.currentTarget.checked)} style={{ minHeight: 'auto' }} /> {value === true ? 'on' : 'off'}
      </label>
    );
  const allowed = def.allowed ?? [];
  const index = allowed.findIndex((a) => a === value);
  const showNumber = def.range !== undefined && (allowed.length === 0 || index < 0 || numberPicked);
  return (
    <>
      {allowed.length > 0 ? (
        <select
          id={id}
          value={showNumber ? NUMBER : String(index)}
          onChange={(e) => {
            const picked = e.currentTarget.value;
            if (picked === NUMBER) setNumberPicked(true);
            else {
              setNumberPicked(false);
              void set(allowed[Number(picked)]!);
            }
          }}
        >
          {allowed.map((a, i) => (
            <option key={String(a)} value={String(i)}>
              {settingValueWords(def, a)}
            </option>
          ))}
          {def.range === undefined ? null : <option value={NUMBER}>a number…</option>}
        </select>
      ) : null}
      {showNumber && def.range !== undefined ? (
        <form
          class="row"
          // Our sentence names the rule and its range; the browser's own bubble would not.
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            const text = String(new FormData(e.currentTarget).get('n') ?? '').trim();
            void set(text === '' ? NaN : Number(text));
          }}
        >
          <input
            {...(allowed.length === 0 ? { id } : { 'aria-label': `${settingTitle(def)}: number` })}
            name="n"
            type="number"
            key={String(value)}
            defaultValue={typeof value === 'number' ? String(value) : String(def.range[0])}
            min={def.range[0]}
            max={def.range[1]}
            step={Number.isInteger(def.default) || typeof def.default !== 'number' ? 1 : 'any'}
            style={{ width: '7em' }}
          />
          <button type="submit" class="small">
            Set
          </button>
        </form>
      ) : null}
    </>
  );
}
