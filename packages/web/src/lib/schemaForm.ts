// The form generator's logic (ADR 13), testable without a DOM: a declared
// payload's JSON Schema (from GET /api/rulesets/:id/commands, never zod in the
// browser) becomes a list of field specs; what the GM typed becomes the
// payload, with the schema's limits checked first so most mistakes are shown
// in place before anything is sent. The server checks again either way.
import type { Json } from '@tablekeeper/engine';

export type JsonSchema = { readonly [k: string]: unknown };

/** One catalogue entry as the server serves it. */
export interface CatalogEntry {
  readonly ruleset: string;
  readonly type: string;
  readonly kind: 'command' | 'query';
  readonly summary: string;
  readonly who: 'gm' | 'own-character' | 'anyone' | 'everyone';
  readonly schema: JsonSchema;
  readonly result?: JsonSchema;
  /** A command kept only as an alias (ADR 62): what to send instead, and the date after which it may be refused. */
  readonly deprecated?: { readonly replacement: string; readonly removedAfter: string };
}

interface Base {
  readonly key: string;
  /** Dotted path from the payload root ("stats.str", "targets.0"). */
  readonly path: string;
  readonly label: string;
  readonly required: boolean;
  readonly description: string;
  /** The schema's default (sheet fields have one each, ADR 21), for a form that starts from them. */
  readonly default?: Json;
  /** Why an empty field must be filled in, in words (x-unset: a sheet value a rule reads that is "not set yet"). */
  readonly unset?: string;
}

export type FieldSpec =
  /** `examples`: suggestions the box offers (the text's common movement styles), any other value allowed. */
  | (Base & { readonly kind: 'text'; readonly minLength: number; readonly maxLength: number | null; readonly pattern: string | null; readonly examples: readonly string[] })
  /** `dice`: the number is a die's size (x-die: a teams attribute of 8 is a d8), picked from these. */
  | (Base & { readonly kind: 'integer' | 'number'; readonly min: number | null; readonly max: number | null; readonly dice?: readonly number[] })
  /** `tri`: yes, no, or left to the rules (a nullable flag such as "uses the escalation die": null means "by kind"). */
  | (Base & { readonly kind: 'boolean'; readonly tri?: true })
  /** `labels`: each option in words (x-labels: a Kleptonomicon ability's time "beatReaction" reads "1 Beat (a reaction)"). */
  | (Base & { readonly kind: 'enum'; readonly options: readonly (string | number)[]; readonly labels?: { readonly [option: string]: string } })
  /** An id of something at the table: the caller's hook lists the choices; `examples`, names offered besides (a weapon's usual attributes). */
  | (Base & { readonly kind: 'ref'; readonly ref: string; readonly examples?: readonly string[] })
  /** `itemName`: what one item is called ("Ability" in "Ability 2"): the item schema's title, else the list's label made singular. */
  | (Base & { readonly kind: 'list'; readonly item: FieldSpec; readonly itemName: string; readonly minItems: number; readonly maxItems: number | null })
  | (Base & { readonly kind: 'object'; readonly fields: readonly FieldSpec[] })
  /** A map keyed by names the GM chooses (resistances, attribute dice, items): rows of a name and a value. */
  /** `keyLabel`: what a row's key is called (the key schema's title: a teams item's "key", not a second "name"). */
  | (Base & { readonly kind: 'record'; readonly keys: readonly string[] | null; readonly keyMaxLength: number | null; readonly value: FieldSpec; readonly maxItems: number | null; readonly keyExamples?: readonly string[]; readonly keyLabel?: string })
  /** Text that may also be a number or JSON (dice as "2d6+1", 3 or {count, sides}). */
  | (Base & { readonly kind: 'mixed'; readonly accepts: readonly string[] })
  /** Anything else (free JSON the rules own, maps): typed as JSON text. */
  | (Base & { readonly kind: 'json' });

/** What a form holds: text boxes as strings, checkboxes as booleans, lists and objects nested. */
export type FormValue = string | boolean | readonly FormValue[] | { readonly [k: string]: FormValue };

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && Math.abs(v) < Number.MAX_SAFE_INTEGER ? v : null);

function resolve(s: JsonSchema, root: JsonSchema): JsonSchema {
  const ref = s['$ref'];
  if (typeof ref !== 'string') return s;
  return ((root['$defs'] as Record<string, JsonSchema> | undefined)?.[ref.replace('#/$defs/', '')] ?? {}) as JsonSchema;
}

/** One of a list's items: "abilities" -> "ability", "Moves" -> "Move". */
export function singular(label: string): string {
  return label.endsWith('ies') ? `${label.slice(0, -3)}y` : label.endsWith('s') && !label.endsWith('ss') ? label.slice(0, -1) : label;
}

/**
 * A field's limits and whether it may be left empty, in words beside its label: " (optional, 3–18)", " (1–30)",
 * " (optional, 0 or more)". A bound of a thousand or more is the server's guard, not a rule's range, so it is left out.
 */
export function fieldNote(f: FieldSpec): string {
  const parts: string[] = f.required ? [] : ['optional'];
  // A die picker lists its sizes: no number range beside it (review 9 read "strength 0–10000" over "choose a die…").
  if ((f.kind === 'integer' || f.kind === 'number') && (f.dice === undefined || f.dice.length === 0)) {
    const big = (n: number | null) => n === null || Math.abs(n) >= 1000;
    if (f.min !== null && f.max !== null && !big(f.max) && !big(f.min)) parts.push(f.min < 0 ? `${f.min} to ${f.max}` : `${f.min}–${f.max}`);
    else if (f.min !== null && !big(f.min) && big(f.max)) parts.push(`${f.min} or more`);
  }
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

/** "targetId" -> "target id", "maxHp" -> "max hp". */
export function labelOf(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

/** The field for one property of an object schema. */
export function fieldOf(key: string, path: string, schema: JsonSchema, root: JsonSchema, required: boolean, depth = 0): FieldSpec {
  let s = resolve(schema, root);
  // A schema's own title (zod .meta({ title })) is the label people read; else the key in words.
  // x-choose: optional for the API (the rule has a default) but a form makes the choice deliberate (a teams weapon's damage type, ADR 53).
  const base = { key, path, label: typeof s['title'] === 'string' && s['title'] !== '' ? s['title'] : labelOf(key), required: required || s['x-choose'] === true, description: typeof s['description'] === 'string' ? s['description'] : '', ...(s['default'] !== undefined ? { default: s['default'] as Json } : {}), ...(typeof s['x-unset'] === 'string' ? { unset: s['x-unset'] } : {}) };
  // Nullable (anyOf [X, null]) is X left empty; the null is never needed from a form.
  const anyOf = s['anyOf'] as JsonSchema[] | undefined;
  if (Array.isArray(anyOf)) {
    // An alternative marked x-long-form is an older spelling the server still reads; a form offers the others.
    const alts = anyOf.map((x) => resolve(x, root)).filter((x) => x['type'] !== 'null' && x['x-long-form'] !== true);
    if (alts.length === 1) {
      s = { ...alts[0]!, description: s['description'] ?? alts[0]!['description'], title: s['title'] ?? alts[0]!['title'] };
      const one = fieldOf(key, path, s, root, required, depth);
      // A nullable flag has three states; a checkbox would turn a saved "no" into "by the rules" (review 7's round trip).
      const nullable = anyOf.some((x) => resolve(x, root)['type'] === 'null');
      return one.kind === 'boolean' && nullable ? { ...one, tri: true } : one;
    }
    const kinds = alts.map((x) => String(x['type'] ?? (Array.isArray(x['enum']) ? 'string' : 'json')));
    if (kinds.includes('string') && alts.length <= 4) return { ...base, kind: 'mixed', accepts: kinds };
    // A number or its longer object form (a power cost, deflection by category): the object's fields say it all.
    const objects = alts.filter((x) => x['type'] === 'object' && typeof x['properties'] === 'object');
    if (objects.length === 1 && alts.every((x) => x === objects[0] || x['type'] === 'integer' || x['type'] === 'number')) return fieldOf(key, path, { ...objects[0]!, description: s['description'] ?? objects[0]!['description'], title: s['title'] ?? objects[0]!['title'] }, root, required, depth);
    return { ...base, kind: 'json' };
  }
  if (typeof s['x-ref'] === 'string') {
    const examples = Array.isArray(s['examples']) ? s['examples'].filter((x): x is string => typeof x === 'string') : [];
    return { ...base, kind: 'ref', ref: s['x-ref'], ...(examples.length > 0 ? { examples } : {}) };
  }
  if (Array.isArray(s['enum'])) {
    const words = s['x-labels'];
    const labels = words !== null && typeof words === 'object' && !Array.isArray(words) ? Object.fromEntries(Object.entries(words as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string')) : null;
    return { ...base, kind: 'enum', options: s['enum'] as (string | number)[], ...(labels !== null ? { labels } : {}) };
  }
  const type = Array.isArray(s['type']) ? (s['type'] as string[]).find((t) => t !== 'null') : s['type'];
  switch (type) {
    case 'string':
      return { ...base, kind: 'text', minLength: num(s['minLength']) ?? 0, maxLength: num(s['maxLength']), pattern: typeof s['pattern'] === 'string' ? s['pattern'] : null, examples: Array.isArray(s['examples']) ? s['examples'].filter((x): x is string => typeof x === 'string') : [] };
    case 'integer':
    case 'number':
      return { ...base, kind: type, min: num(s['minimum']), max: num(s['maximum']), ...(Array.isArray(s['x-die']) ? { dice: (s['x-die'] as unknown[]).filter((x): x is number => typeof x === 'number') } : {}) };
    case 'boolean':
      return { ...base, kind: 'boolean', ...(Array.isArray(s['type']) && (s['type'] as unknown[]).includes('null') ? { tri: true as const } : {}) };
    case 'array': {
      const items = resolve((s['items'] ?? {}) as JsonSchema, root);
      if (depth > 3) return { ...base, kind: 'json' };
      const itemName = typeof items['title'] === 'string' && items['title'] !== '' ? items['title'] : singular(base.label);
      return { ...base, kind: 'list', item: fieldOf('item', `${path}.*`, items, root, true, depth + 1), itemName, minItems: num(s['minItems']) ?? 0, maxItems: num(s['maxItems']) };
    }
    case 'object': {
      const props = s['properties'] as Record<string, JsonSchema> | undefined;
      const extra = s['additionalProperties'];
      if ((props === undefined || Object.keys(props).length === 0) && extra !== null && typeof extra === 'object' && depth <= 3) {
        const names = resolve((s['propertyNames'] ?? {}) as JsonSchema, root);
        const keys = Array.isArray(names['enum']) ? (names['enum'] as unknown[]).map(String) : null;
        const value = fieldOf('value', `${path}.*`, resolve(extra as JsonSchema, root), root, true, depth + 1);
        const examples = Array.isArray(names['examples']) ? (names['examples'] as unknown[]).filter((x): x is string => typeof x === 'string') : [];
        const keyLabel = typeof names['title'] === 'string' && names['title'] !== '' ? { keyLabel: names['title'] } : {};
        return { ...base, kind: 'record', keys, keyMaxLength: num(names['maxLength']), value, maxItems: num(s['maxProperties']), ...(examples.length > 0 ? { keyExamples: examples } : {}), ...keyLabel };
      }
      if (props === undefined || Object.keys(props).length === 0 || depth > 3) return { ...base, kind: 'json' };
      return { ...base, kind: 'object', fields: fieldsOf(s, root, path, depth + 1) };
    }
    default:
      return { ...base, kind: 'json' };
  }
}

/** The fields of an object schema (a command's payload), required ones first as declared. */
export function fieldsOf(schema: JsonSchema, root: JsonSchema = schema, prefix = '', depth = 0): FieldSpec[] {
  const s = resolve(schema, root);
  const props = (s['properties'] ?? {}) as Record<string, JsonSchema>;
  const req = new Set((s['required'] ?? []) as string[]);
  // A key the server makes from the name (x-from-name: a 36th Way ability's id) is never asked for.
  return Object.entries(props)
    .filter(([k, v]) => !(resolve(v, root)['x-from-name'] === true && !req.has(k)))
    .map(([k, v]) => fieldOf(k, prefix === '' ? k : `${prefix}.${k}`, v, root, req.has(k), depth));
}

/** An enum option as people read it: its x-labels words, else the value itself. */
export function optionLabel(f: FieldSpec, o: string | number): string {
  return f.kind === 'enum' ? (f.labels?.[String(o)] ?? String(o)) : String(o);
}

/** An empty form for these fields. */
export function initialValues(fields: readonly FieldSpec[]): { [k: string]: FormValue } {
  const out: { [k: string]: FormValue } = {};
  for (const f of fields) out[f.key] = initialValue(f);
  return out;
}

export function initialValue(f: FieldSpec): FormValue {
  switch (f.kind) {
    case 'boolean':
      return f.tri === true ? '' : false;
    case 'list':
    case 'record':
      return [];
    case 'object':
      return initialValues(f.fields);
    default:
      return '';
  }
}

export interface FieldError {
  readonly path: string;
  readonly message: string;
}

type Converted = { ok: true; value: Json | undefined } | { ok: false; errors: FieldError[] };
// `where` names the field as the form labels it, never by its path: the chain of labels from the form's top, each a
// field (read "of") or a list item or map entry (read "in"), an item by its own name where it has one (review 7).
// An error is one sentence: "Amount of power in Cleave is required." (review 9 read "power › amount is required").
interface Part {
  readonly label: string;
  /** A field of its parent (joined with "of"); false: an item of a list or an entry of a map (joined with "in"). */
  readonly field: boolean;
}
type Where = readonly Part[];
const capital = (t: string): string => (t === '' ? t : t.charAt(0).toUpperCase() + t.slice(1));
/** The field in words, innermost first: "amount of power in Cleave". */
function phrase(where: Where): string {
  const inner = where.at(-1);
  if (inner === undefined) return '';
  let out = inner.label;
  for (let i = where.length - 2; i >= 0; i--) out += `${where[i]!.field ? ' of ' : ' in '}${where[i]!.label}`;
  return out;
}
/** One sentence naming the field: "AC must be from 0 to 1000." */
function sentence(where: Where, message: string): string {
  const m = message.trim().replace(/[.\s]+$/, '');
  const head = phrase(where);
  return `${capital(head === '' ? m : `${head} ${m}`)}.`;
}
const bad = (path: string, where: Where, message: string): Converted => ({ ok: false, errors: [{ path, message: sentence(where, message) }] });
const inside = (where: Where, label: string): Where => [...where, { label, field: true }];
/** The last part read as an entry of itself: a map's row ("resist 1", "resist \"fire\""). */
const entry = (where: Where, tail: string): Where => [...where.slice(0, -1), { label: `${where.at(-1)?.label ?? ''} ${tail}`.trim(), field: false }];
/** A list item as the form names it: its own name where it has one, else its place ("abilities 2"). */
const itemWhere = (f: Extract<FieldSpec, { kind: 'list' }>, item: FormValue | undefined, where: Where, i: number): Where => {
  const name = f.item.kind === 'object' && typeof item === 'object' && item !== null && !Array.isArray(item) ? (item as { readonly [k: string]: FormValue })['name'] : undefined;
  return typeof name === 'string' && name.trim() !== '' ? [...where.slice(0, -1), { label: name.trim(), field: false }] : [...where.slice(0, -1), { label: `${f.itemName} ${i + 1}`, field: false }];
};

function convert(f: FieldSpec, v: FormValue | undefined, path: string, where: Where): Converted {
  const empty = v === undefined || v === '' || (Array.isArray(v) && v.length === 0 && f.kind === 'list' && f.minItems === 0 && !f.required);
  if (f.kind === 'record') return convertRecord(f, Array.isArray(v) ? v : [], path, where);
  // An unticked optional box is left out, so the command's own default applies.
  if (f.kind === 'boolean' && f.tri === true) return { ok: true, value: v === 'yes' || v === true ? true : v === 'no' ? false : undefined };
  if (f.kind === 'boolean') return { ok: true, value: v === true ? true : f.required ? false : undefined };
  if (empty && f.kind !== 'object' && f.kind !== 'list') return f.required ? bad(path, where, 'is required') : { ok: true, value: undefined };
  switch (f.kind) {
    case 'text': {
      const s = String(v);
      if (s.length < f.minLength) return bad(path, where, `must be at least ${f.minLength} characters`);
      if (f.maxLength !== null && s.length > f.maxLength) return bad(path, where, `must be text of at most ${f.maxLength} characters`);
      // The schema's description says what the pattern wants, in words ("a lower-case style name").
      if (f.pattern !== null && !new RegExp(f.pattern).test(s)) return bad(path, where, f.description !== '' ? `must be ${f.description}` : 'is not in the expected form');
      return { ok: true, value: s };
    }
    case 'ref':
      return { ok: true, value: String(v) };
    case 'enum': {
      const hit = f.options.find((o) => String(o) === String(v));
      return hit === undefined ? bad(path, where, `must be one of ${f.options.map((o) => optionLabel(f, o)).join(', ')}`) : { ok: true, value: hit };
    }
    case 'integer':
    case 'number': {
      const s = String(v).trim();
      const n = Number(s);
      if (s === '' || !Number.isFinite(n) || (f.kind === 'integer' && !Number.isInteger(n))) return bad(path, where, `must be ${f.kind === 'integer' ? 'a whole number' : 'a number'}`);
      if ((f.min !== null && n < f.min) || (f.max !== null && n > f.max)) return bad(path, where, f.min !== null && f.max !== null ? `must be from ${f.min} to ${f.max}` : f.min !== null ? `must be at least ${f.min}` : `must be at most ${f.max}`);
      return { ok: true, value: n };
    }
    case 'mixed': {
      const s = String(v).trim();
      if ((f.accepts.includes('integer') || f.accepts.includes('number')) && /^-?\d+(\.\d+)?$/.test(s)) return { ok: true, value: Number(s) };
      if (f.accepts.includes('object') && s.startsWith('{')) return parseJson(s, path, where);
      return { ok: true, value: s };
    }
    case 'json':
      return parseJson(String(v), path, where);
    case 'list': {
      const items = Array.isArray(v) ? v : [];
      // An optional list left empty is left out, whatever its least length.
      if (items.length === 0 && !f.required) return { ok: true, value: undefined };
      // Named with what it takes where the schema suggests names (a teams weapon's attributes: "such as strength").
      const names = f.item.kind === 'text' || f.item.kind === 'ref' ? (f.item.examples ?? []) : [];
      const such = names.length > 0 ? `, such as ${names.join(' or ')}` : '';
      if (items.length < f.minItems) return bad(path, where, `needs at least ${f.minItems} item${f.minItems === 1 ? '' : 's'}${such}`);
      if (f.maxItems !== null && items.length > f.maxItems) return bad(path, where, `may hold at most ${f.maxItems} items`);
      const out: Json[] = [];
      const errors: FieldError[] = [];
      items.forEach((item, i) => {
        const c = convert(f.item, item, `${path}.${i}`, itemWhere(f, item, where, i));
        if (!c.ok) errors.push(...c.errors);
        else out.push(c.value ?? null);
      });
      if (errors.length > 0) return { ok: false, errors };
      return { ok: true, value: out.length === 0 && !f.required ? undefined : out };
    }
    case 'object': {
      // An optional object left wholly blank is left out, even if some of its own fields are required.
      if (!f.required && isBlank(v)) return { ok: true, value: undefined };
      const r = collect(f.fields, (v ?? {}) as { readonly [k: string]: FormValue }, path, where);
      if (!r.ok) return r;
      // An optional object left wholly empty is left out.
      return { ok: true, value: !f.required && Object.keys(r.payload).length === 0 ? undefined : r.payload };
    }
  }
}

/** One row of a record field as the form holds it. */
export interface RecordRow {
  readonly key: string;
  readonly value: FormValue;
}
const rowOf = (v: FormValue): RecordRow => {
  const o = (typeof v === 'object' && v !== null && !Array.isArray(v) ? v : {}) as { readonly [k: string]: FormValue };
  return { key: typeof o['key'] === 'string' ? o['key'] : '', value: o['value'] ?? '' };
};

function convertRecord(f: Extract<FieldSpec, { kind: 'record' }>, rows: readonly FormValue[], path: string, where: Where): Converted {
  if (f.maxItems !== null && rows.length > f.maxItems) return bad(path, where, `may hold at most ${f.maxItems} entries`);
  const out: { [k: string]: Json } = {};
  const errors: FieldError[] = [];
  rows.map(rowOf).forEach((row, i) => {
    const key = row.key.trim();
    // A row is named by its place until it has a name of its own.
    if (key === '') return errors.push({ path: `${path}.${i}`, message: sentence(entry(where, String(i + 1)), 'needs a name') });
    if (f.keys !== null && !f.keys.includes(key)) return errors.push({ path: `${path}.${i}`, message: sentence(entry(where, `"${key}"`), `has a name that must be one of ${f.keys.join(', ')}`) });
    if (f.keyMaxLength !== null && key.length > f.keyMaxLength) return errors.push({ path: `${path}.${i}`, message: sentence(entry(where, String(i + 1)), `has a name longer than ${f.keyMaxLength} characters`) });
    if (Object.hasOwn(out, key)) return errors.push({ path: `${path}.${i}`, message: sentence(entry(where, `"${key}"`), 'is named twice') });
    const c = convert(f.value, row.value, `${path}.${key}`, entry(where, `"${key}"`));
    if (!c.ok) errors.push(...c.errors);
    else out[key] = c.value ?? null;
  });
  if (errors.length > 0) return { ok: false, errors };
  // An emptied map is sent as {} where the schema gives one by default (so a sheet's resistances can be cleared).
  return { ok: true, value: Object.keys(out).length === 0 && !f.required && f.default === undefined ? undefined : out };
}

/** Nothing typed or ticked anywhere in it. */
function isBlank(v: FormValue | undefined): boolean {
  if (v === undefined || v === '' || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.values(v).every(isBlank);
  return false;
}

function parseJson(s: string, path: string, where: Where): Converted {
  try {
    return { ok: true, value: JSON.parse(s) as Json };
  } catch {
    return bad(path, where, 'is not valid JSON');
  }
}

function collect(fields: readonly FieldSpec[], values: { readonly [k: string]: FormValue }, prefix: string, where: Where): { ok: true; payload: { [k: string]: Json } } | { ok: false; errors: FieldError[] } {
  const payload: { [k: string]: Json } = {};
  const errors: FieldError[] = [];
  for (const f of fields) {
    const c = convert(f, values[f.key], prefix === '' ? f.key : `${prefix}.${f.key}`, inside(where, f.label));
    if (!c.ok) errors.push(...c.errors);
    else if (c.value !== undefined) payload[f.key] = c.value;
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, payload };
}

/** The payload for what was typed, or every field error (path and message) to show in place. */
export function toPayload(fields: readonly FieldSpec[], values: { readonly [k: string]: FormValue }): { ok: true; payload: { [k: string]: Json } } | { ok: false; errors: FieldError[] } {
  return collect(fields, values, '', []);
}

/** A server refusal's path ("sheet.abilities.0.frequency", "abilities[0].name") as the form's parts, or null where the form has no such field. */
function partsOf(fields: readonly FieldSpec[], values: { readonly [k: string]: FormValue }, path: string): Where | null {
  const parts = path.replace(/\[(\d+)\]/g, '.$1').split('.').filter((x) => x !== '');
  let where: Where = [];
  let list: readonly FieldSpec[] = fields;
  let here: FormValue | undefined = values;
  for (let i = 0; i < parts.length; i++) {
    const f = list.find((x) => x.key === parts[i]);
    if (f === undefined) return where.length === 0 ? null : where;
    where = inside(where, f.label);
    here = typeof here === 'object' && here !== null && !Array.isArray(here) ? (here as { readonly [k: string]: FormValue })[f.key] : undefined;
    let g: FieldSpec = f;
    if (g.kind === 'list' && i + 1 < parts.length && /^\d+$/.test(parts[i + 1]!)) {
      const n = Number(parts[++i]);
      const item: FormValue | undefined = Array.isArray(here) ? (here as readonly FormValue[])[n] : undefined;
      where = itemWhere(g, item, where, n);
      here = item;
      g = g.item;
    } else if (g.kind === 'record' && i + 1 < parts.length) {
      where = entry(where, `"${parts[++i]!}"`);
      g = g.value;
    }
    if (g.kind === 'object') list = g.fields;
    else if (i + 1 < parts.length) return where;
  }
  return where;
}

/**
 * A server refusal's path ("abilities.0.frequency") in the form's words ("frequency in Cleave"), as the form's own
 * checks name it; null when the path leads nowhere the form knows.
 */
export function placeOf(fields: readonly FieldSpec[], values: { readonly [k: string]: FormValue }, path: string): string | null {
  const where = partsOf(fields, values, path);
  return where === null ? null : phrase(where);
}

/**
 * A server's refusal of what a form sent, as one sentence naming the field as the form labels it. Its message often
 * starts with the field's path ("sheet.abilities.0.power.amount: is required"): that path becomes the form's words
 * ("Amount of power in Cleave is required."). `base` is the payload's own prefix the form does not show ("sheet").
 * `plain` words a message with no field (the caller's usual refusal words).
 */
export function refusalInWords(fields: readonly FieldSpec[], values: { readonly [k: string]: FormValue }, r: { readonly message: string; readonly path?: string | undefined }, plain: (message: string) => string, base = ''): string {
  const path = r.path ?? '';
  if (path === '') return plain(r.message);
  const rel = base !== '' && path.startsWith(`${base}.`) ? path.slice(base.length + 1) : path;
  let rest = r.message.trim();
  // The path may be spelt with brackets ("abilities[1].name") or from the payload's top ("sheet.abilities.1").
  for (const p of [path, rel, path.replace(/\[(\d+)\]/g, '.$1'), rel.replace(/\[(\d+)\]/g, '.$1')]) {
    if (p !== '' && rest.startsWith(p) && /^(:|\s|$)/.test(rest.slice(p.length))) {
      rest = rest.slice(p.length).replace(/^[:\s]+/, '');
      break;
    }
  }
  const where = partsOf(fields, values, rel);
  if (where === null) return plain(rest === r.message.trim() ? rest : `${labelOf(rel.split(/[.[]/).filter((x) => x !== '' && !/^\d+\]?$/.test(x)).at(-1) ?? '')} ${rest}`);
  // A message that is a sentence of its own ("give the ability a name") follows its field: "Name in abilities 1: give ...".
  const verb = /^(is|are|must|may|needs?|has|have|does|do|cannot|can|should|was|were|at most|at least)\b/i.test(rest);
  return verb ? sentence(where, rest) : `${capital(phrase(where))}: ${plain(rest)}`;
}

/** A copy of `values` with the value at `path` (dotted, list indices as numbers) replaced. */
export function setAt(values: FormValue, path: readonly (string | number)[], value: FormValue): FormValue {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (Array.isArray(values)) {
    const copy = [...(values as FormValue[])];
    copy[head as number] = setAt(copy[head as number] ?? '', rest, value);
    return copy;
  }
  const obj = (typeof values === 'object' && values !== null ? values : {}) as { readonly [k: string]: FormValue };
  return { ...obj, [head as string]: setAt(obj[head as string] ?? '', rest, value) };
}

/**
 * Catalogue entries a viewer may issue, commands first, then by type: the GM all, a player not the GM-only ones.
 * A deprecated alias is left out: its replacement is listed, and the alias is only for stored commands (ADR 62).
 */
export function entriesFor(entries: readonly CatalogEntry[], gm: boolean, filter = ''): CatalogEntry[] {
  const q = filter.trim().toLowerCase();
  return entries
    .filter((e) => e.deprecated === undefined)
    .filter((e) => gm || e.who !== 'gm')
    .filter((e) => q === '' || e.type.toLowerCase().includes(q) || e.summary.toLowerCase().includes(q))
    .sort((a, b) => (a.kind === b.kind ? a.type.localeCompare(b.type) : a.kind === 'command' ? -1 : 1));
}

/** Form values for a stored payload (editing what was saved): numbers as the text boxes hold them. */
export function formValuesFrom(fields: readonly FieldSpec[], payload: { readonly [k: string]: Json }): { [k: string]: FormValue } {
  const out = initialValues(fields);
  for (const f of fields) {
    if (!Object.hasOwn(payload, f.key)) continue;
    const v = valueFrom(f, payload[f.key]!);
    if (v !== undefined) out[f.key] = v;
  }
  return out;
}

/** One stored value as its field holds it, or undefined for a null (the field stays empty). */
export function valueFrom(f: FieldSpec, v: Json): FormValue | undefined {
  const isObj = v !== null && typeof v === 'object' && !Array.isArray(v);
  if (f.kind === 'object' && isObj) return formValuesFrom(f.fields, v);
  if (f.kind === 'record' && isObj) return Object.entries(v).map(([key, x]) => ({ key, value: valueFrom(f.value, x) ?? initialValue(f.value) }));
  if (f.kind === 'boolean' && f.tri === true) return v === true ? 'yes' : v === false ? 'no' : '';
  if (f.kind === 'boolean') return v === true;
  if (f.kind === 'list' && Array.isArray(v)) return v.map((x) => valueFrom(f.item, x) ?? initialValue(f.item));
  if (f.kind === 'json') return JSON.stringify(v);
  if (v === null) return undefined;
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** A form filled with each field's declared default (a new sheet), empty where there is none. */
export function defaultValues(fields: readonly FieldSpec[]): { [k: string]: FormValue } {
  const out = initialValues(fields);
  for (const f of fields) {
    const v = f.default === undefined ? undefined : valueFrom(f, f.default);
    if (v !== undefined) out[f.key] = v;
  }
  return out;
}

/** A payload schema without some of its fields (a form that fills them itself, such as an id). */
export function withoutFields(schema: JsonSchema, keys: readonly string[]): JsonSchema {
  const props = { ...((schema['properties'] ?? {}) as Record<string, unknown>) };
  for (const k of keys) delete props[k];
  const required = ((schema['required'] ?? []) as string[]).filter((k) => !keys.includes(k));
  return { ...schema, properties: props, required };
}

/**
 * A form schema that asks for `needs`' fields (a sheet value a rule reads and the character lacks): each is
 * required and says why when empty (x-unset), instead of starting from a default that is not the character's.
 */
export function withNeeds(schema: JsonSchema, needs: { readonly [key: string]: string }): JsonSchema {
  const props = (schema['properties'] ?? {}) as Record<string, JsonSchema>;
  const keys = Object.keys(needs).filter((k) => Object.hasOwn(props, k));
  if (keys.length === 0) return schema;
  const required = [...new Set([...((schema['required'] ?? []) as string[]), ...keys])];
  return { ...schema, required, properties: { ...props, ...Object.fromEntries(keys.map((k) => [k, { ...props[k], 'x-unset': needs[k] }])) } };
}

/** The `x-ref: keys:<field>` choices: the names of the rows the form's own record field holds now (a teams sheet's wielded items). */
export function keysOfField(values: { readonly [k: string]: FormValue }, field: string): { value: string; label: string }[] {
  const rows = values[field];
  if (!Array.isArray(rows)) return [];
  return rows.flatMap((r) => {
    if (typeof r !== 'object' || r === null || Array.isArray(r)) return [];
    const row = r as { readonly [k: string]: FormValue };
    const key = typeof row['key'] === 'string' ? row['key'].trim() : '';
    const v = row['value'];
    const name = typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as { readonly [k: string]: FormValue })['name'] === 'string' ? ((v as { readonly [k: string]: FormValue })['name'] as string).trim() : '';
    return key === '' ? [] : [{ value: key, label: name === '' || name === key ? key : `${name} (${key})` }];
  });
}

/** A die's size in words: 8 is "d8". */
export const dieLabel = (n: number): string => `d${n}`;

/**
 * A record row's name in words: "items", row 0 -> "Item 1"; with what the key is called, "Item 1: short name"
 * (review 8 read "items 1 key" on the teams item form).
 */
export function recordRowLabel(label: string, index: number, part?: string): string {
  const one = singular(label);
  const row = `${one.charAt(0).toUpperCase()}${one.slice(1)} ${index + 1}`;
  return part === undefined ? row : `${row}: ${part}`;
}

type Values = { readonly [k: string]: FormValue };

/**
 * An unsaved draft carried over a change to what it started from (a delta: damage, a parry, a player's edit):
 * each field the GM changed keeps the GM's value, every other field takes the new one. So a draft survives the
 * tracker's re-renders and its save never writes back a stale endurance (review 8: the tracker's editor dropped drafts).
 */
export function rebaseDraft(base: Values, draft: Values, next: Values): { [k: string]: FormValue } {
  const out: { [k: string]: FormValue } = { ...next };
  for (const [k, v] of Object.entries(draft)) if (JSON.stringify(v) !== JSON.stringify(base[k])) out[k] = v;
  return out;
}

/** Whether the form's values differ from what it started from (a draft worth keeping). */
export function isDraft(start: Values, values: Values): boolean {
  return Object.keys({ ...start, ...values }).some((k) => JSON.stringify(values[k]) !== JSON.stringify(start[k]));
}

/**
 * The schema with each top-level field's maximum lowered to the table setting it names (`x-max-setting`): the sheet
 * model takes what any table may allow, this table's setting decides (Daggerheart's Hope against hopeMax).
 */
export function withSettingCaps(schema: JsonSchema, settings: { readonly [k: string]: unknown }): JsonSchema {
  const props = schema['properties'] as { readonly [k: string]: JsonSchema } | undefined;
  if (props === undefined) return schema;
  const capped = Object.entries(props).map(([k, p]): [string, JsonSchema] => {
    const cap = typeof p['x-max-setting'] === 'string' ? settings[p['x-max-setting']] : undefined;
    const max = typeof p['maximum'] === 'number' ? p['maximum'] : Infinity;
    return [k, typeof cap === 'number' && cap < max ? { ...p, maximum: cap } : p];
  });
  return { ...schema, properties: Object.fromEntries(capped) };
}
