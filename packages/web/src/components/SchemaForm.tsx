// A form for any declared payload (ADR 13), built from its JSON Schema.
//
// Usage:
//   <SchemaForm
//     schema={entry.schema}                 // JSON Schema from GET /api/rulesets/:id/commands
//     useOptions={useTableOptions}          // a hook: (ref) => [{ value, label }] for id fields
//     submitLabel="Send"
//     onSubmit={(payload) => send({ type: entry.type, ...payload })}  // may return an error text to show
//   />
//
// Text fields, integers with min/max, enums as selects, booleans, lists of
// simple items, nested objects and optional fields are rendered; an id field
// (`x-ref`: character, combatant, countdown, seat) is a select whose choices
// come from `useOptions`, called as a hook inside the picker, so a caller can
// read its table view there. Free JSON (a condition's params) is a JSON text
// box. The limits are checked here first (lib/schemaForm.ts); the server
// checks again and its INVALID_VALUE path is shown under the form.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { dieLabel, fieldNote, fieldsOf, initialValue, initialValues, keysOfField, optionLabel, rebaseDraft, recordRowLabel, setAt, toPayload, type FieldError, type FieldSpec, type FormValue, type JsonSchema } from '../lib/schemaForm.ts';
import { TickList } from './TickList.tsx';

export interface RefOption {
  readonly value: string;
  readonly label: string;
}

/** Choices for an id field of the given kind ("character", "combatant", "countdown", "seat"). Called as a hook. */
export type UseOptions = (ref: string) => readonly RefOption[];

export interface SchemaFormProps {
  readonly schema: JsonSchema;
  readonly useOptions?: UseOptions;
  readonly submitLabel?: string;
  /** Prefix for element ids, when two forms share a page. */
  readonly idPrefix?: string;
  /** Called with the payload; a returned string is shown as the form's error (the server's rejection). */
  readonly onSubmit: (payload: { readonly [k: string]: unknown }) => void | string | null | Promise<void | string | null>;
  /** Values to start from (an entry being edited: see formValuesFrom). */
  readonly initial?: { readonly [k: string]: FormValue };
  /**
   * Unsaved values the form opens with instead of `initial` (a kept draft). Read at mount only: a draft that
   * came back in as `initial` would be taken for the stored sheet, and two quick deltas then made the form and
   * its caller's draft undo each other forever (the GM page froze on CI, teams-forms).
   */
  readonly draft?: { readonly [k: string]: FormValue };
  /** Told of every change with what the form starts from now, so a caller may keep the draft against that start. */
  readonly onChange?: (values: { readonly [k: string]: FormValue }, start: { readonly [k: string]: FormValue }) => void;
  /** Told when the form's own checks refuse a save (nothing is sent), so a caller clears its last "Saved" line. */
  readonly onInvalid?: () => void;
  /** A new `initial` (the stored sheet changed under the form) is taken in under what was typed, without remounting (sheet editors). */
  readonly followInitial?: boolean;
}

const noOptions: UseOptions = () => [];

export function SchemaForm({ schema, useOptions = noOptions, submitLabel = 'Send', idPrefix = 'sf', onSubmit, initial, draft, onChange, onInvalid, followInitial = false }: SchemaFormProps) {
  const fields = useMemo(() => fieldsOf(schema), [schema]);
  const [values, setValues] = useState<{ readonly [k: string]: FormValue }>(() => ({ ...initialValues(fields), ...(draft ?? initial ?? {}) }));
  // What the form last started from; a changed start is taken in under the fields typed since (lib/sheetForm rebaseDraft).
  const started = useRef({ ...initialValues(fields), ...(initial ?? {}) });
  // The start travels with the values: a caller's own `start` may be a render older than the form's.
  useEffect(() => onChange?.(values, started.current), [values]);
  const startKey = followInitial ? JSON.stringify(initial ?? {}) : '';
  useEffect(() => {
    if (!followInitial) return;
    const next = { ...initialValues(fields), ...(initial ?? {}) };
    if (JSON.stringify(next) === JSON.stringify(started.current)) return;
    const base = started.current;
    started.current = next;
    setValues((old) => rebaseDraft(base, old, next));
  }, [startKey]);
  const [errors, setErrors] = useState<readonly FieldError[]>([]);
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const change = (path: readonly (string | number)[], v: FormValue) => setValues((old) => setAt(old, path, v) as { readonly [k: string]: FormValue });
  // `keys:<field>` picks among the rows of the form's own record field (a sheet's items); a field the form
  // does not hold (a phone's form of the player's fields only) and any other ref are the caller's.
  const options: UseOptions = (ref) => (ref.startsWith('keys:') && fields.some((f) => f.key === ref.slice(5)) ? keysOfField(values, ref.slice(5)) : useOptions(ref));

  async function submit(e: Event) {
    e.preventDefault();
    const r = toPayload(fields, values);
    if (!r.ok) {
      setErrors(r.errors);
      // The last server refusal is stale too: only this try's errors stand.
      setServerError(null);
      onInvalid?.();
      return;
    }
    setErrors([]);
    setBusy(true);
    try {
      const answer = await onSubmit(r.payload);
      setServerError(typeof answer === 'string' ? answer : null);
    } finally {
      setBusy(false);
    }
  }

  return (
    // noValidate: the limits are checked in lib/schemaForm.ts and named in place, not by the browser's own bubbles.
    <form class="schema-form" onSubmit={submit} noValidate data-testid="schema-form">
      {fields.length === 0 ? <p class="hint">No fields.</p> : null}
      {fields.map((f) => (
        <FieldInput key={f.key} field={f} id={`${idPrefix}-${f.path}`} value={values[f.key]} at={[f.key]} change={change} useOptions={options} errors={errors} />
      ))}
      {errors.length > 0 ? (
        // The alert wraps the list: a role on the <ul> itself would unmake it a list for screen readers (axe "listitem").
        <div role="alert" data-testid="schema-form-errors">
          <ul class="form-errors">
            {errors.map((x) => (
              <li key={x.path}>{x.message}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {serverError !== null ? (
        <p class="form-errors" role="alert" data-testid="schema-form-server-error">
          {serverError}
        </p>
      ) : null}
      <button type="submit" disabled={busy}>
        {submitLabel}
      </button>
    </form>
  );
}

interface InputProps {
  readonly field: FieldSpec;
  readonly id: string;
  readonly value: FormValue | undefined;
  readonly at: readonly (string | number)[];
  readonly change: (path: readonly (string | number)[], v: FormValue) => void;
  readonly useOptions: UseOptions;
  readonly errors: readonly FieldError[];
}

function FieldInput({ field: f, id, value, at, change, useOptions, errors }: InputProps) {
  const invalid = errors.some((e) => e.path === at.join('.') || e.path.startsWith(`${at.join('.')}.`));
  // "Strength (STR) (optional, 0–30)": the rules' name, then whether it may be left empty and its range in words.
  const label = `${f.label}${fieldNote(f)}`;
  // A field a rule needs and the character lacks says so beside it, and in its empty box (review 9: no made-up Evasion).
  const unset = f.unset !== undefined && (value === undefined || value === '') ? f.unset : null;
  const common = { id, 'aria-invalid': invalid ? ('true' as const) : undefined, title: f.description || undefined, ...(unset !== null ? { 'aria-describedby': `${id}-unset` } : {}) };
  let control;
  switch (f.kind) {
    case 'boolean':
      control =
        f.tri === true ? (
          <select {...common} value={value === true ? 'yes' : typeof value === 'string' ? value : ''} onChange={(e) => change(at, e.currentTarget.value)}>
            <option value="">(by the rules)</option>
            <option value="yes">yes</option>
            <option value="no">no</option>
          </select>
        ) : (
          <input type="checkbox" {...common} checked={value === true} onChange={(e) => change(at, e.currentTarget.checked)} />
        );
      break;
    case 'enum':
      control = (
        <select {...common} value={String(value ?? '')} onChange={(e) => change(at, e.currentTarget.value)}>
          <option value="">{f.required ? 'choose…' : '(default)'}</option>
          {f.options.map((o) => (
            <option key={String(o)} value={String(o)}>
              {optionLabel(f, o)}
            </option>
          ))}
        </select>
      );
      break;
    case 'ref':
      control = <RefPicker common={common} refKind={f.ref} required={f.required} value={String(value ?? '')} onChange={(v) => change(at, v)} useOptions={useOptions} />;
      break;
    case 'integer':
    case 'number':
      if (f.dice !== undefined && f.dice.length > 0) {
        // A die's size as its name ("d8"); a stored size not on the list stays selectable.
        const v = String(value ?? '');
        const sizes = v === '' || f.dice.includes(Number(v)) ? f.dice : [...f.dice, Number(v)];
        control = (
          <select {...common} value={v} onChange={(e) => change(at, e.currentTarget.value)}>
            <option value="">{f.required ? 'choose a die…' : '(none)'}</option>
            {sizes.map((n) => (
              <option key={n} value={String(n)}>
                {dieLabel(n)}
              </option>
            ))}
          </select>
        );
        break;
      }
      control = (
        <input
          type="number"
          {...common}
          step={f.kind === 'integer' ? 1 : 'any'}
          min={f.min ?? undefined}
          max={f.max ?? undefined}
          placeholder={unset !== null ? 'not set yet' : undefined}
          value={String(value ?? '')}
          onInput={(e) => change(at, e.currentTarget.value)}
        />
      );
      break;
    case 'list':
      return <ListInput field={f} id={id} value={Array.isArray(value) ? value : []} at={at} change={change} useOptions={useOptions} errors={errors} />;
    case 'record':
      return <RecordInput field={f} id={id} value={Array.isArray(value) ? value : []} at={at} change={change} useOptions={useOptions} errors={errors} />;
    case 'object':
      return (
        <fieldset class="schema-object">
          <legend>{label}</legend>
          {f.fields.map((c) => (
            <FieldInput key={c.key} field={c} id={`${id}.${c.key}`} value={((value ?? {}) as { readonly [k: string]: FormValue })[c.key]} at={[...at, c.key]} change={change} useOptions={useOptions} errors={errors} />
          ))}
        </fieldset>
      );
    case 'json':
      control = <textarea {...common} rows={2} placeholder="JSON" value={String(value ?? '')} onInput={(e) => change(at, e.currentTarget.value)} />;
      break;
    default:
      control = (
        <input
          type="text"
          {...common}
          maxLength={f.kind === 'text' && f.maxLength !== null ? f.maxLength : undefined}
          list={f.kind === 'text' && f.examples.length > 0 ? `${id}-examples` : undefined}
          placeholder={f.kind === 'mixed' ? f.description || 'e.g. 2d6+1' : undefined}
          value={String(value ?? '')}
          onInput={(e) => change(at, e.currentTarget.value)}
        />
      );
  }
  return (
    <span class="inline-field schema-field">
      <label for={id}>{label}</label>
      {control}
      {unset !== null ? (
        <span class="small muted" id={`${id}-unset`} data-testid="field-unset">
          {f.label.charAt(0).toUpperCase() + f.label.slice(1)} is {unset}.
        </span>
      ) : null}
      {f.kind === 'text' && f.examples.length > 0 ? (
        <datalist id={`${id}-examples`}>
          {f.examples.map((x) => (
            <option key={x} value={x} />
          ))}
        </datalist>
      ) : null}
    </span>
  );
}

/** The caller's hook lists the choices; a value typed elsewhere that is not among them stays selectable. */
function RefPicker({ common, refKind, required, value, onChange, useOptions }: { common: object; refKind: string; required: boolean; value: string; onChange: (v: string) => void; useOptions: UseOptions }) {
  const options = useOptions(refKind);
  const known = options.some((o) => o.value === value);
  return (
    <select {...common} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
      <option value="">{required ? (refKind.startsWith('keys:') ? 'choose…' : `choose a ${refKind}…`) : '(none)'}</option>
      {!known && value !== '' ? <option value={value}>{value}</option> : null}
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

/**
 * A list picked from the form's own rows (`x-ref: keys:<field>`, a teams sheet's wielded items or the attributes a
 * weapon rolls) as one box per row: ticked is in the list (review 10: "wielded 1", "add wielded" hid what was held).
 * The schema's example names are offered after the rows (003's strength and dexterity before a sheet has dice). At most `maxItems` ticked.
 */
function KeysPicker({ field: f, id, value, at, change, useOptions }: Omit<InputProps, 'value' | 'field' | 'errors'> & { field: Extract<FieldSpec, { kind: 'list' }>; value: readonly FormValue[] }) {
  const picked = value.map(String);
  const item = f.item as Extract<FieldSpec, { kind: 'ref' }>;
  const options = useOptions(item.ref);
  // A row picked but since renamed or removed stays on show, ticked, so the save says what is wrong with it.
  const extra = [...(item.examples ?? []), ...picked].filter((v, i, all) => v !== '' && all.indexOf(v) === i && !options.some((o) => o.value === v));
  const all = [...options, ...extra.map((v) => ({ value: v, label: v }))];
  return (
    <fieldset class="schema-list" id={id}>
      <legend>{f.label}</legend>
      {f.description !== '' ? <span class="small muted">{f.description}</span> : null}
      {all.length === 0 ? <span class="small muted">Nothing to pick yet.</span> : null}
      <TickList options={all} picked={picked} full={f.maxItems !== null && picked.length >= f.maxItems} onToggle={(v, on) => change(at, on ? [...picked, v] : picked.filter((x) => x !== v))} />
    </fieldset>
  );
}

function ListInput({ field: f, id, value, at, change, useOptions, errors }: Omit<InputProps, 'value' | 'field'> & { field: Extract<FieldSpec, { kind: 'list' }>; value: readonly FormValue[] }) {
  if (f.item.kind === 'ref' && f.item.ref.startsWith('keys:')) return <KeysPicker field={f} id={id} value={value} at={at} change={change} useOptions={useOptions} />;
  const add = () => change(at, [...value, f.item.kind === 'boolean' ? false : f.item.kind === 'object' ? initialValues(f.item.fields) : '']);
  const remove = (i: number) => change(at, value.filter((_, j) => j !== i));
  return (
    <fieldset class="schema-list">
      <legend>
        {f.label}
        {f.minItems > 0 ? ` (at least ${f.minItems})` : f.required ? '' : ' (optional)'}
      </legend>
      {/* What the list is for, in words on the form (review 7: an empty weapon "attributes" gave no hint). */}
      {f.description !== '' ? <span class="small muted">{f.description}</span> : null}
      {value.map((v, i) => (
        <span key={i} class="schema-list-item">
          <FieldInput field={{ ...f.item, label: `${f.itemName} ${i + 1}` }} id={`${id}.${i}`} value={v} at={[...at, i]} change={change} useOptions={useOptions} errors={errors} />
          <button type="button" aria-label={`remove ${f.itemName} ${i + 1}`} onClick={() => remove(i)}>
            ×
          </button>
        </span>
      ))}
      {f.maxItems === null || value.length < f.maxItems ? (
        <button type="button" onClick={add}>
          add {f.label}
        </button>
      ) : null}
    </fieldset>
  );
}

/** A map as rows: a name (free text, or a choice where the schema lists the names) and its value. */
function RecordInput({ field: f, id, value, at, change, useOptions, errors }: Omit<InputProps, 'value' | 'field'> & { field: Extract<FieldSpec, { kind: 'record' }>; value: readonly FormValue[] }) {
  const row = (v: FormValue) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as { readonly [k: string]: FormValue }) : {});
  const used = new Set(value.map((v) => String(row(v)['key'] ?? '')));
  // A new row starts from the first name the rules list that is not taken yet.
  const add = () => change(at, [...value, { key: f.keys?.find((k) => !used.has(k)) ?? f.keyExamples?.find((k) => !used.has(k)) ?? '', value: initialValue(f.value) }]);
  const remove = (i: number) => change(at, value.filter((_, j) => j !== i));
  return (
    <fieldset class="schema-record" data-testid={`record-${f.path}`}>
      <legend>
        {f.label}
        {f.required ? '' : ' (optional)'}
      </legend>
      {/* What the rules read from it, in words (review 11: teams skills never said an attack needs "combat"). */}
      {f.description !== '' ? <span class="small muted">{f.description}</span> : null}
      {value.length === 0 ? <span class="small muted">none</span> : null}
      {value.map((v, i) => {
        const key = String(row(v)['key'] ?? '');
        const name = recordRowLabel(f.label, i);
        const keyInvalid = errors.some((e) => e.path === [...at, i].join('.'));
        return (
          <span key={i} class="schema-record-row">
            <span class="inline-field schema-field">
              <label for={`${id}.${i}.key`}>{recordRowLabel(f.label, i, f.keyLabel ?? 'name')}</label>
              {f.keys !== null ? (
                <select id={`${id}.${i}.key`} value={key} aria-invalid={keyInvalid ? 'true' : undefined} onChange={(e) => change([...at, i, 'key'], e.currentTarget.value)}>
                  <option value="">choose…</option>
                  {f.keys.map((k) => (
                    <option key={k} value={k}>
                      {k}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  id={`${id}.${i}.key`}
                  type="text"
                  value={key}
                  maxLength={f.keyMaxLength ?? undefined}
                  list={f.keyExamples !== undefined ? `${id}-names` : undefined}
                  aria-invalid={keyInvalid ? 'true' : undefined}
                  onInput={(e) => change([...at, i, 'key'], e.currentTarget.value)}
                />
              )}
            </span>
            <FieldInput field={{ ...f.value, label: key === '' ? recordRowLabel(f.label, i) : key }} id={`${id}.${i}.value`} value={row(v)['value']} at={[...at, i, 'value']} change={change} useOptions={useOptions} errors={errors} />
            <button type="button" aria-label={`remove ${name}${key === '' ? '' : ` (${key})`}`} onClick={() => remove(i)}>
              ×
            </button>
          </span>
        );
      })}
      {f.keyExamples !== undefined ? (
        // The names the rules use, as suggestions (any other name may be typed).
        <datalist id={`${id}-names`}>
          {f.keyExamples.map((k) => (
            <option key={k} value={k} />
          ))}
        </datalist>
      ) : null}
      {f.maxItems === null || value.length < f.maxItems ? (
        <button type="button" onClick={add}>
          add {f.label}
        </button>
      ) : null}
    </fieldset>
  );
}
