// The command catalogue (ADR 13): every command and query declares its summary,
// who may issue it and a strict zod schema of its payload. The engine parses a
// payload against its declaration before authorize and decide run, so a
// malformed field is always INVALID_VALUE naming the field and the limit.
import { z } from 'zod';
import { ErrorCode, ruleError } from './result.js';
import type { Command, CommandHandler, EngineEvent, Env, Json, Query, Result, RuleError, Viewer, World } from './types.js';

/**
 * Who may issue it: the GM only; the GM or the seat holding the character it names;
 * anyone seated (or the GM); everyone at the table, spectators too (read-only queries
 * whose answer is what the table shows, ADR 39). The engine enforces it for queries.
 */
export type Who = 'gm' | 'own-character' | 'anyone' | 'everyone';
export const WHO: readonly Who[] = ['gm', 'own-character', 'anyone', 'everyone'];

/**
 * Whether `viewer` may ask a query declared for `who`: spectators only what everyone
 * may, players all but the GM's. Ownership of a named character is the query's own check.
 */
export function mayAsk(who: Who, viewer: Viewer): boolean {
  if (viewer.role === 'gm') return true;
  if (who === 'gm') return false;
  return viewer.role === 'player' || who === 'everyone';
}

export interface CommandDeclaration<I extends z.ZodType = z.ZodType> {
  readonly kind: 'command';
  readonly type: string;
  /** One line, imperative: what the command does at the table. */
  readonly summary: string;
  readonly who: Who;
  /** The payload without `type`; always a strict object. */
  readonly input: I;
  /** Fields renamed since stored commands were written: old name -> new (docs/vocabulary.md); parsing moves them. */
  readonly renamed?: Renamed;
  /** Renames that also change the value (two counts folded into one): see `Merged`. */
  readonly merged?: Merged;
  /**
   * The command acts on whatever is current (the last change, the running turn), not on
   * something it names: a client never sends it again after someone else's change landed first.
   */
  readonly relative?: true;
  /**
   * For a relative command, the payload field that names what it acts on (ADR 58). Given,
   * the rules refuse the command once that has moved on (an End turn naming its turn:
   * TURN_MOVED_ON), so a client may send it again after a conflict; left out, it stays relative.
   */
  readonly namedBy?: string;
  /** A command kept only as an alias (ADR 62): what to send instead, and the date after which a catalogue may refuse it. */
  readonly deprecated?: Deprecation;
}

/**
 * A deprecated command still works, so stored commands replay and old clients keep
 * working, until the first protocol or catalogue version released after `removedAfter`.
 */
export interface Deprecation {
  /** The command to send instead. */
  readonly replacement: string;
  /** An ISO date (YYYY-MM-DD): versions released after it may refuse the command. */
  readonly removedAfter: string;
}

export interface QueryDeclaration<I extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  readonly kind: 'query';
  readonly type: string;
  readonly summary: string;
  readonly who: Who;
  readonly input: I;
  /** What the answer looks like (checked by the catalogue tests, not at run time). */
  readonly result: R;
  readonly renamed?: Renamed;
  readonly merged?: Merged;
}

/** Old field name -> new field name, for payloads written before a vocabulary rename. */
export type Renamed = { readonly [oldName: string]: string };

/**
 * A rename with a value transform, keyed by the old name (which must also be in `renamed`):
 * the new field's value is `fold(old, new)`, so an old payload may give both (OSR's
 * `disadvantage` count folds into a net signed `advantage`). A fold leaves a value it
 * cannot read as it is, for the schema to name.
 */
export type Merged = { readonly [oldName: string]: (old: Json, now: Json | undefined) => Json };

export type Declaration = CommandDeclaration | QueryDeclaration;
/** A module's declarations by command or query type. */
export type Catalog = { readonly [type: string]: Declaration };

/** Payload of a declared command, as its decide() receives it (defaults filled in). */
export type PayloadOf<D> = D extends { readonly input: infer I extends z.ZodType } ? z.output<I> : never;
/** Payload as a client may send it (optional and defaulted fields may be left out). */
export type InputOf<D> = D extends { readonly input: infer I extends z.ZodType } ? z.input<I> : never;

const renames = (spec: { renamed?: Renamed; merged?: Merged }) => ({ ...(spec.renamed === undefined ? {} : { renamed: spec.renamed }), ...(spec.merged === undefined ? {} : { merged: spec.merged }) });

export function declareCommand<I extends z.ZodType>(type: string, spec: { summary: string; who: Who; input: I; renamed?: Renamed; merged?: Merged; relative?: true; namedBy?: string; deprecated?: Deprecation }): CommandDeclaration<I> {
  return {
    kind: 'command',
    type,
    summary: spec.summary,
    who: spec.who,
    input: spec.input,
    ...renames(spec),
    ...(spec.relative === true ? { relative: true as const, ...(spec.namedBy === undefined ? {} : { namedBy: spec.namedBy }) } : {}),
    ...(spec.deprecated === undefined ? {} : { deprecated: { replacement: spec.deprecated.replacement, removedAfter: spec.deprecated.removedAfter } }),
  };
}

export function declareQuery<I extends z.ZodType, R extends z.ZodType>(type: string, spec: { summary: string; who: Who; input: I; result: R; renamed?: Renamed; merged?: Merged }): QueryDeclaration<I, R> {
  return { kind: 'query', type, summary: spec.summary, who: spec.who, input: spec.input, result: spec.result, ...renames(spec) };
}

/**
 * The upcaster for renamed fields: a payload written with an old name (a stored
 * command, an old client) gets the new one. Giving both is refused, naming the old.
 */
export function upcastPayload(renamed: Renamed | undefined, payload: { readonly [key: string]: Json | undefined }, merged?: Merged): Result<{ [key: string]: Json | undefined }> {
  if (renamed === undefined) return { ok: true, value: { ...payload } };
  // Renamed in a Map (insertion-ordered as an object's keys are), then made an object once: a `delete` on the object
  // turned it into a slow dictionary, and every copy of it after (the command as sent, the parse) paid for that.
  const out = new Map<string, Json | undefined>(Object.entries(payload));
  for (const [from, to] of Object.entries(renamed)) {
    if (!out.has(from) || out.get(from) === undefined) continue;
    const fold = merged !== undefined && Object.hasOwn(merged, from) ? merged[from] : undefined;
    if (fold !== undefined) {
      out.set(to, fold(out.get(from)!, out.has(to) ? out.get(to) : undefined));
      out.delete(from);
      continue;
    }
    if (out.has(to) && out.get(to) !== undefined) return { ok: false, error: ruleError(ErrorCode.INVALID_VALUE, `${from}: is the old name of ${to}; give only ${to}`, from) };
    out.set(to, out.get(from));
    out.delete(from);
  }
  return { ok: true, value: Object.fromEntries(out) };
}

/** Whether `payload` holds a field under an old name of `renamed` (else upcastPayload would only copy it). */
export function holdsOldNames(renamed: Renamed | undefined, payload: { readonly [key: string]: Json | undefined }): boolean {
  if (renamed === undefined) return false;
  for (const from in renamed) if (Object.hasOwn(renamed, from) && Object.hasOwn(payload, from) && payload[from] !== undefined) return true;
  return false;
}

/** Declarations keyed by type; a type declared twice is a programming error (throws at import). */
export function catalogOf(...decls: readonly Declaration[]): Catalog {
  const out: Record<string, Declaration> = {};
  for (const d of decls) {
    if (Object.hasOwn(out, d.type)) throw new Error(`${d.type} is declared twice`);
    out[d.type] = d;
  }
  return Object.freeze(out);
}

export interface DefinedCommand<I extends z.ZodType> {
  readonly declaration: CommandDeclaration<I>;
  readonly handler: CommandHandler;
}

/**
 * A declaration and its handler in one object (STYLE 1): `decide` receives the
 * parsed, typed payload and never reads raw command fields.
 */
export function defineCommand<I extends z.ZodType>(
  type: string,
  spec: {
    summary: string;
    who: Who;
    input: I;
    renamed?: Renamed;
    relative?: true;
    namedBy?: string;
  } & TypedHandler<I>,
): DefinedCommand<I> {
  const declaration = declareCommand(type, spec);
  return { declaration, handler: handlerOf(declaration, spec) };
}

/** What a typed handler gives: `decide` (and `authorize`) receive the parsed payload. */
export interface TypedHandler<I extends z.ZodType> {
  label?: string;
  authorize?: (world: World, payload: z.output<I>, actor: Viewer) => RuleError | null;
  issuerMayRevert?: boolean;
  decide: (world: World, payload: z.output<I>, env: Env) => Result<EngineEvent[]>;
}

/** The handler for a declaration kept in its own file (STYLE 1): decide never reads raw command fields. */
export function handlerOf<I extends z.ZodType, S extends TypedHandler<I> = TypedHandler<I>>(declaration: CommandDeclaration<I>, spec: S & TypedHandler<I>): CommandHandler & (S extends { label: string } ? { readonly label: string } : unknown) {
  // The engine has already parsed the payload and says so (markParsed); any other caller's command is parsed here (tests, other engines).
  const decide = (world: World, c: Command, env: Env): Result<EngineEvent[]> => {
    const p = parsedPayload(declaration, c);
    return p.ok ? spec.decide(world, p.value, env) : p;
  };
  markReaders.add(decide);
  return {
    ...(spec.label === undefined ? {} : { label: spec.label }),
    ...(spec.issuerMayRevert === undefined ? {} : { issuerMayRevert: spec.issuerMayRevert }),
    ...(spec.authorize === undefined
      ? {}
      : {
          // A malformed payload names no one to judge: the engine's schema gate reports it next.
          authorize: (world: World, c: Command, actor: Viewer) => {
            const p = parsedPayload(declaration, c);
            return p.ok ? spec.authorize!(world, p.value, actor) : null;
          },
        }),
    decide,
  } as CommandHandler & (S extends { label: string } ? { readonly label: string } : unknown);
}

/** The decides handlerOf made: they read only the engine's parse (markParsed), never the command's own fields. */
const markReaders = new WeakSet<CommandHandler['decide']>();

/** Whether `decide` is one handlerOf made: the engine then hands it the command as sent (marked), not a parsed copy. */
export function readsEngineParse(decide: CommandHandler['decide']): boolean {
  return markReaders.has(decide);
}

/** A typed query handler from its declaration (the engine parses args first; parsing again keeps it safe alone). */
export function defineQuery<I extends z.ZodType, R extends z.ZodType>(
  declaration: QueryDeclaration<I, R>,
  answer: (world: World, args: z.output<I>, viewer: Viewer) => Result<Json>,
): Query {
  return (world, args, viewer) => {
    const p = parsePayload(declaration, args);
    return p.ok ? answer(world, p.value, viewer) : p;
  };
}

// ---------------------------------------------------------------- field helpers

/** An id minted by the engine ("ch3", "cd2", ...); `ref` tells forms which picker to offer. */
const idOf = (ref: string, description: string) => z.string().min(1).max(64).meta({ description, 'x-ref': ref });
export const characterId = (description = 'a character id') => idOf('character', description);
export const combatantId = (description = 'a combatant id (in the current encounter)') => idOf('combatant', description);
export const countdownId = (description = 'a countdown id') => idOf('countdown', description);
export const seatId = (description = 'a seat id') => idOf('seat', description);
/** Free text a person typed: a name, a label, a note. */
export const text = (max: number, description?: string) => (description === undefined ? z.string().max(max) : z.string().max(max).meta({ description }));
/** A whole number within explicit limits. */
export const int = (min: number, max: number, description?: string) => (description === undefined ? z.int().min(min).max(max) : z.int().min(min).max(max).meta({ description }));
/** Any plain JSON value (stats blobs); depth and size are bounded by checkCommand. */
export const json = (): z.ZodType<Json> => z.json() as unknown as z.ZodType<Json>;

// ---------------------------------------------------------------- parsing and errors

type Bag = { minimum?: number; maximum?: number; int?: boolean };
interface Inner {
  _zod: {
    def: {
      type: string;
      innerType?: Inner;
      shape?: Record<string, Inner>;
      element?: Inner;
      valueType?: Inner;
      in?: Inner;
      getter?: () => Inner;
      checks?: readonly { _zod: { def: { check: string; minimum?: number; maximum?: number; length?: number } } }[];
    };
  };
  minValue?: number | null;
  maxValue?: number | null;
  isInt?: boolean;
  minLength?: number | null;
  maxLength?: number | null;
}

/** The limits a schema declares, read from zod's public getters (numbers, strings) or its checks (lists). */
function boundsOf(s: Inner | undefined): Bag {
  if (s === undefined) return {};
  const fin = (n: number | null | undefined): number | undefined => (typeof n === 'number' && Number.isFinite(n) ? n : undefined);
  if (s._zod.def.type === 'number') return { minimum: fin(s.minValue), maximum: fin(s.maxValue), int: s.isInt === true } as Bag;
  if (s._zod.def.type === 'string') return { minimum: fin(s.minLength) ?? 0, maximum: fin(s.maxLength) } as Bag;
  const out: { minimum?: number; maximum?: number } = {};
  for (const c of s._zod.def.checks ?? []) {
    const d = c._zod.def;
    if (d.check === 'min_length') out.minimum = d.minimum;
    if (d.check === 'max_length') out.maximum = d.maximum;
    if (d.check === 'length_equals') out.minimum = out.maximum = d.length;
  }
  return out;
}

/** The schema at `path` (through optional, default, pipe, lazy), or undefined inside unions. */
function schemaAt(schema: Inner, path: readonly PropertyKey[]): Inner | undefined {
  let s: Inner | undefined = schema;
  let i = 0;
  for (let guard = 0; s !== undefined && guard < 256; guard++) {
    const def: Inner['_zod']['def'] = s._zod.def;
    if (def.innerType !== undefined) s = def.innerType;
    else if (def.type === 'pipe') s = def.in;
    else if (def.type === 'lazy' && def.getter !== undefined) s = def.getter();
    else if (i === path.length) return s;
    else if (def.type === 'object') s = def.shape?.[String(path[i++])];
    else if (def.type === 'array') {
      s = def.element;
      i++;
    } else if (def.type === 'record') {
      s = def.valueType;
      i++;
    }
    else return undefined;
  }
  return undefined;
}

function range(what: string, bag: Bag, unit = ''): string | null {
  const { minimum: lo, maximum: hi } = bag;
  const fin = (n: number | undefined): n is number => n !== undefined && Number.isFinite(n) && Math.abs(n) < Number.MAX_SAFE_INTEGER;
  if (what === 'text' && lo === 0 && fin(hi)) return `must be text of at most ${hi}${unit}`;
  if (fin(lo) && fin(hi)) return `must be ${what} from ${lo} to ${hi}${unit}`;
  if (fin(lo)) return `must be ${what} of at least ${lo}${unit}`;
  if (fin(hi)) return `must be ${what} of at most ${hi}${unit}`;
  return null;
}

const KIND_WORDS: Record<string, string> = { string: 'a string', number: 'a number', int: 'an integer', boolean: 'true or false', object: 'an object', array: 'a list', null: 'null' };

function issueText(issue: z.core.$ZodIssue, schema: Inner | undefined, missing: boolean): string {
  const bag = boundsOf(schema);
  const isInt = bag.int === true;
  switch (issue.code) {
    case 'invalid_type': {
      if (missing) return 'is required';
      const kind = issue.expected === 'number' && isInt ? 'int' : issue.expected;
      if ((kind === 'int' || kind === 'number') && schema !== undefined) return range(kind === 'int' ? 'an integer' : 'a number', bag) ?? `must be ${KIND_WORDS[kind]}`;
      return `must be ${KIND_WORDS[kind] ?? issue.expected}`;
    }
    case 'too_small':
    case 'too_big':
      if (issue.origin === 'number' || issue.origin === 'int') return range(isInt ? 'an integer' : 'a number', bag) ?? issue.message;
      if (issue.origin === 'string') return range('text', bag, ' characters') ?? issue.message;
      if (issue.origin === 'array' || issue.origin === 'set') return range('a list', bag, ' items') ?? issue.message;
      return issue.message;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'unrecognized_keys':
      return 'is not a field here (objects are strict: check the spelling)';
    case 'invalid_union':
      return 'does not match any of the allowed shapes';
    case 'invalid_format':
      return `must be a valid ${issue.format}`;
    default:
      return issue.message;
  }
}

const pathText = (path: readonly PropertyKey[]): string => path.map(String).join('.');

/** The first issue as a rule error: INVALID_VALUE, its path naming the field, its message the limit. */
export function issueError(schema: z.ZodType, issue: z.core.$ZodIssue, payload?: unknown): RuleError {
  // An unknown key is named by its own path, so a client can point at the misspelt field.
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] ?? ''] : issue.path;
  const where = pathText(path);
  const at = schemaAt(schema as unknown as Inner, issue.path);
  // zod does not report the input by default: look the value up to tell a missing field from a wrong one.
  let value: unknown = payload;
  for (const k of issue.path) value = value !== null && typeof value === 'object' && Object.hasOwn(value, k) ? (value as Record<PropertyKey, unknown>)[k] : undefined;
  const message = `${where === '' ? 'payload' : where}: ${issueText(issue, at, value === undefined)}`;
  return where === '' ? ruleError(ErrorCode.INVALID_VALUE, message) : ruleError(ErrorCode.INVALID_VALUE, message, where);
}

/**
 * The payloads the engine parsed last, by the command object it hands a handler, with the schema they were
 * parsed against: a command is parsed once per decision, not once more by its authorizer and again by its
 * decide (issue 19). A few slots, not a weak map: the handler reads its mark within the same decision (a
 * nested decision marks two more), and weak map inserts per command cost as much as the parse they saved (ADR 96).
 * A mark that was overwritten only costs a parse.
 */
const PARSED_SLOTS = 8;
const parsedObjects: (object | null)[] = new Array<object | null>(PARSED_SLOTS).fill(null);
const parsedInputs: (z.ZodType | null)[] = new Array<z.ZodType | null>(PARSED_SLOTS).fill(null);
const parsedValues: unknown[] = new Array<unknown>(PARSED_SLOTS).fill(null);
let nextSlot = 0;

/** The engine parsed `command`'s payload against `input`, giving `value`: handlers made by handlerOf read that instead of parsing it again. */
export function markParsed(command: object, input: z.ZodType, value: unknown): void {
  parsedObjects[nextSlot] = command;
  parsedInputs[nextSlot] = input;
  parsedValues[nextSlot] = value;
  nextSlot = (nextSlot + 1) % PARSED_SLOTS;
}

/** The payload as the engine parsed it for this very object and schema, else parsed now. */
function parsedPayload<I extends z.ZodType>(declaration: { readonly input: I; readonly renamed?: Renamed; readonly merged?: Merged }, c: Command): Result<z.output<I>> {
  for (let i = 0; i < PARSED_SLOTS; i++) {
    if (parsedObjects[i] === c && parsedInputs[i] === declaration.input) return { ok: true, value: parsedValues[i] as z.output<I> };
  }
  return parsePayload(declaration, c);
}

/** Parse a command (without its `type`) or query args against a declaration. */
export function parsePayload<I extends z.ZodType>(declaration: { readonly input: I; readonly renamed?: Renamed; readonly merged?: Merged }, raw: { readonly [key: string]: Json | undefined }): Result<z.output<I>> {
  const up = upcastPayload(declaration.renamed, raw, declaration.merged);
  return up.ok ? parseUpcast(declaration, raw, up.value) : up;
}

/** parsePayload of `raw` whose names were already brought to today's (`up`, from upcastPayload): the engine upcasts once per decision. */
export function parseUpcast<I extends z.ZodType>(declaration: { readonly input: I; readonly renamed?: Renamed; readonly merged?: Merged }, raw: { readonly [key: string]: Json | undefined }, up: { readonly [key: string]: Json | undefined }): Result<z.output<I>> {
  const payload: { [key: string]: Json } = {};
  for (const k of Object.keys(up)) {
    const v = up[k];
    if (k === 'type' || v === undefined) continue;
    // Assigning `payload['__proto__'] = v` would set the prototype instead of naming the key.
    if (k === '__proto__') Object.defineProperty(payload, k, { value: v, enumerable: true, writable: true, configurable: true });
    else payload[k] = v;
  }
  const r = declaration.input.safeParse(payload);
  if (r.success) return { ok: true, value: r.data };
  return { ok: false, error: namedAsSent(declaration, raw, issueError(declaration.input, r.error.issues[0]!, payload)) };
}

/**
 * An error about a field sent under its old name names it as sent, so the sender can find it
 * (the schema gate's errors and the rules' own, ADR 27). A message that starts with the path follows it.
 */
export function namedAsSent(declaration: { readonly renamed?: Renamed }, raw: { readonly [key: string]: Json | undefined }, e: RuleError): RuleError {
  const head = e.path?.split(/[.[]/)[0];
  const old = head === undefined ? undefined : Object.entries(declaration.renamed ?? {}).find(([from, to]) => to === head && Object.hasOwn(raw, from) && raw[from] !== undefined && !(Object.hasOwn(raw, to) && raw[to] !== undefined))?.[0];
  if (old === undefined || e.path === undefined) return e;
  const path = old + e.path.slice(head!.length);
  return { ...e, path, message: e.message.startsWith(e.path) ? path + e.message.slice(e.path.length) : e.message };
}

/** JSON Schema of a declaration's payload (what a client may send) or of a query's result. */
export function payloadJsonSchema(declaration: Declaration): Record<string, unknown> {
  return z.toJSONSchema(declaration.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
}

export function resultJsonSchema(declaration: QueryDeclaration): Record<string, unknown> {
  return z.toJSONSchema(declaration.result, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
}

/** The module with its declarations attached (rulesets keep them in their own file, next to the module). */
export function withCatalog<M extends { readonly catalog?: Catalog }>(module: M, catalog: Catalog): M {
  return { ...module, catalog: { ...(module.catalog ?? {}), ...catalog } };
}

/** One command or query as clients see it (`tablekeeper commands --json`, GET /api/rulesets/:id/commands). */
export interface CatalogEntry {
  readonly ruleset: string;
  readonly type: string;
  readonly kind: 'command' | 'query';
  readonly summary: string;
  readonly who: Who;
  /** JSON Schema of the payload a client sends. */
  readonly schema: Record<string, unknown>;
  /** For queries: JSON Schema of the answer. */
  readonly result?: Record<string, unknown>;
  /** Present on commands that act on whatever is current: never resent after VERSION_CONFLICT (see CommandDeclaration). */
  readonly relative?: true;
  /** On a relative command: the field that, given, names what it acts on, so it may be resent (see CommandDeclaration). */
  readonly namedBy?: string;
  /** Present on a command kept only as an alias: its replacement and the date after which it may be refused (ADR 62). */
  readonly deprecated?: Deprecation;
}

/** The catalogue of one ruleset's engine as JSON, in module order (engine commands under every ruleset that has them). */
export function catalogEntries(ruleset: string, engine: { readonly catalog: readonly Declaration[] }): CatalogEntry[] {
  return engine.catalog.map((d) => ({
    ruleset,
    type: d.type,
    kind: d.kind,
    summary: d.summary,
    who: d.who,
    schema: payloadJsonSchema(d),
    ...(d.kind === 'query' ? { result: resultJsonSchema(d) } : {}),
    ...(d.kind === 'command' && d.relative === true ? { relative: true as const, ...(d.namedBy === undefined ? {} : { namedBy: d.namedBy }) } : {}),
    ...(d.kind === 'command' && d.deprecated !== undefined ? { deprecated: d.deprecated } : {}),
  }));
}

/** The types of the commands declared `relative` (what a client must not resend after a conflict), sorted. */
export function relativeCommands(catalog: readonly Declaration[]): string[] {
  return catalog.filter((d) => d.kind === 'command' && d.relative === true).map((d) => d.type).sort();
}

/** The relative commands a client may resend when their payload names what they act on: type to the naming field (ADR 58). */
export function namedRelativeCommands(catalog: readonly Declaration[]): { [type: string]: string } {
  const out: { [type: string]: string } = {};
  for (const d of catalog) if (d.kind === 'command' && d.relative === true && d.namedBy !== undefined) out[d.type] = d.namedBy;
  return out;
}
