// One sheet model (issue 17, ADR 21): each ruleset declares its character
// sheet once, as a zod object with defaults and a per-field `playerEditable`
// flag, and one engine command, `character.sheet.set`, sets a whole sheet or a
// patch of it. Where a ruleset stores the sheet (a character's stats, or its
// own sheet records) stays its business: `read` and `write` bridge to it, so
// old per-ruleset sheet commands and their stored events keep working.
import { controls } from './controls.js';
import { z } from 'zod';
import { characterId, declareCommand, declareQuery, defineQuery, type CommandDeclaration } from './catalog.js';
import { appendLog } from './log.js';
import { audiencesOf, reducersOf, type Evolve } from './events.js';
import { own } from './own.js';
import { err, ErrorCode, ok } from './result.js';
import { audienceFor, AUDIENCE_GM } from './visibility.js';
import { foeBasis, foeKeys, isFoeCharacter, pickKeys, FOES_ID, type FoeFields } from '../foes/model.js';
import type { Character, CommandHandler, EngineEvent, Json, Module, Projector, Result, RuleError, World } from './types.js';

export const SHEET_MODULE_ID = 'sheet';
export const SHEET_SET = 'character.sheet.set';
/** The query a phone's sheet form starts from: the stored values and which of them its player may change. */
export const SHEET_GET = 'character.sheet';
/** Removes a sheet (GM only), for rulesets whose sheets outlive or never had a character. */
export const SHEET_REMOVE = 'character.sheet.remove';
/** Stats-stored sheets without an event of their own write this one: `{ id, stats }` merged into the character's stats. */
export const SHEET_SET_EVENT = 'character.sheetSet';

type Values = { readonly [field: string]: Json };

/** The shared sheet's one event, for rulesets that keep their sheet on the character's stats. */
export type SheetEvent = { readonly type: typeof SHEET_SET_EVENT; readonly id: string; readonly stats: Values };

/** A stored value in a log line's words: a number or word as it is, nothing as "none". */
function spoken(v: Json | undefined): string | null {
  if (v === undefined || v === null) return 'none';
  if (typeof v === 'number' || typeof v === 'string') return String(v).slice(0, 40);
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  return null;
}

/** The form's label of a field (its zod title), else its key. */
function titleOf(field: z.ZodType | undefined, key: string): string {
  let t = field;
  while (t instanceof z.ZodOptional || t instanceof z.ZodNullable) t = t.unwrap() as z.ZodType;
  const title = t?.meta()?.['title'];
  return typeof title === 'string' ? title : key;
}

const MAX_NAMED_CHANGES = 6;

/**
 * What a sheet change changed, in the form's labels: "HP marked 1 → 0, Hope 2 → 3" (review 13 #1: the line
 * said only that the sheet was updated, so a player's change could not be checked). Lists and records say only their name.
 */
export function sheetChangeWords(fields: z.ZodRawShape, defaults: Values, before: Values, after: Values): string {
  const parts = Object.keys(after).map((k) => {
    // A field never stored read as its default (HP marked 0), as the forms show it.
    const [from, to] = [spoken(Object.hasOwn(before, k) ? before[k] : defaults[k]), spoken(after[k])];
    const name = titleOf(fields[k] as z.ZodType | undefined, k);
    return from === null || to === null ? `${name} changed` : `${name} ${from} → ${to}`;
  });
  const more = parts.length - MAX_NAMED_CHANGES;
  return more > 0 ? `${parts.slice(0, MAX_NAMED_CHANGES).join(', ')} and ${more} more` : parts.join(', ');
}

// Players read a foe's changed numbers only by the ruleset's declared keys (ADR 33): their line names no value.
const sheetEvolveOf = (fields: z.ZodRawShape, defaults: Values): Evolve<SheetEvent> => ({
  [SHEET_SET_EVENT]: (w, e) => {
    const id = e.id;
    const c = own(w.characters, id);
    if (c === undefined) return w;
    const next = { ...w, characters: { ...w.characters, [id]: { ...c, stats: { ...c.stats, ...e.stats } } } };
    const plain = `${c.name}'s sheet was updated.`;
    const words = sheetChangeWords(fields, defaults, c.stats as Values, e.stats);
    const text = words === '' ? plain : `${c.name}'s sheet was updated: ${words}.`;
    return appendLog(next, { audience: audienceFor(c.visibility), kind: SHEET_SET_EVENT, text, ...(isFoeCharacter(w, id) ? { shown: plain } : {}), data: { id } });
  },
});

export interface SheetSpec {
  readonly rulesetId: string;
  /** What the sheet holds, one optional field per value a rule reads (nested objects strict). */
  readonly fields: z.ZodRawShape;
  /** The value a field takes when a whole sheet leaves it out (none: the ruleset's write fills it, e.g. hp from maxHp). */
  readonly defaults: Values;
  /** Fields a player may change on their own character; the GM may change all. */
  readonly playerEditable: readonly string[];
  /** The character's stored sheet values, in the fields' shape (missing fields: not stored). */
  read(world: World, characterId: string): Values;
  /**
   * Events that store `next` (the whole sheet after the change, in the fields' shape);
   * `changed` holds only what this command changes. Cross-field checks go here.
   */
  write(world: World, characterId: string, next: Values, changed: Values, patch: boolean): Result<EngineEvent[]>;
  /**
   * A creature without a character whose sheet this ruleset keeps under its own id
   * (an unlinked combatant, a foe's stat line): the sheet commands address it as
   * `characterId` too (docs/vocabulary.md). Absent: characters only.
   */
  creature?(world: World, id: string): boolean;
  /** Events that remove the creature's sheet (absent: the ruleset has no `character.sheet.remove`). */
  remove?(world: World, id: string): Result<EngineEvent[]>;
  /**
   * What players read of a foe's stored sheet, by stored key (ADR 33): a stats-stored
   * sheet's foes are projected by this module, a ruleset keeping its own sheet
   * records applies it in its projector. Without it a foe shows no stored value.
   */
  readonly foeFields?: FoeFields;
  /** The ruleset's own events that store a character's stats (`stats`), by the field naming the character: players read a foe's by `foeFields` too. */
  readonly statsEvents?: { readonly [type: string]: string };
}

export interface SheetModel extends SheetSpec {
  /** The whole sheet as a form shows it: each field with its default and a `playerEditable` meta. */
  readonly schema: z.ZodObject;
  /** The command's declaration, with this ruleset's fields as `sheet`. */
  readonly declaration: CommandDeclaration;
  /** `character.sheet.remove`'s declaration, when the ruleset can remove a sheet. */
  readonly removal: CommandDeclaration | null;
}

/** Strip optional wrappers so a field can carry its default in the whole-sheet schema. */
function required(s: z.ZodType): z.ZodType {
  let t = s;
  while (t instanceof z.ZodOptional) t = t.unwrap() as z.ZodType;
  return t;
}

export function defineSheet(spec: SheetSpec): SheetModel {
  const keys = Object.keys(spec.fields);
  for (const k of [...Object.keys(spec.defaults), ...spec.playerEditable]) {
    if (!keys.includes(k)) throw new Error(`${spec.rulesetId} sheet: ${k} is not one of its fields`);
  }
  const editable = new Set(spec.playerEditable);
  const shape: Record<string, z.ZodType> = {};
  for (const k of keys) {
    const base = required(spec.fields[k] as z.ZodType);
    const withDefault = Object.hasOwn(spec.defaults, k) ? base.default(spec.defaults[k] as never) : base.optional();
    shape[k] = withDefault.meta({ playerEditable: editable.has(k) });
  }
  const patch = z.strictObject(Object.fromEntries(keys.map((k) => [k, (spec.fields[k] as z.ZodType).optional()])));
  const declaration = declareCommand(SHEET_SET, {
    summary: "Set a character's sheet: the whole sheet (missing fields take their defaults) or, with patch, only the fields given",
    who: 'own-character',
    input: z.strictObject({
      characterId: characterId(),
      sheet: patch.meta({ description: `the ${spec.rulesetId} sheet (players: only the fields marked playerEditable)` }),
      patch: z.boolean().meta({ description: 'change only the fields given (default false: a whole sheet)' }).optional(),
    }),
  });
  const removal =
    spec.remove === undefined
      ? null
      : declareCommand(SHEET_REMOVE, {
          summary: "Remove a character's or a foe's sheet (the character itself stays)",
          who: 'gm',
          input: z.strictObject({ characterId: characterId('the character, or a creature without one (its own id)') }),
        });
  return { ...spec, schema: z.strictObject(shape), declaration, removal };
}

/** JSON Schema of a ruleset's whole sheet (defaults and playerEditable on each field), for forms. */
export function sheetJsonSchema(model: SheetModel): Record<string, unknown> {
  return z.toJSONSchema(model.schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
}

const FORBIDDEN = (): RuleError => ({ code: ErrorCode.FORBIDDEN, message: "only the GM or the character's own player may change this sheet" });

const same = (a: Json | undefined, b: Json | undefined): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

const sheetQuery = declareQuery(SHEET_GET, {
  summary: "A character's stored sheet and the fields its player may change (for the phone's form)",
  who: 'own-character',
  input: z.strictObject({ characterId: characterId() }),
  result: z.strictObject({ sheet: z.record(z.string(), z.json()), playerEditable: z.array(z.string()) }),
});

/** The module that handles `character.sheet.set` for one ruleset's sheet model. */
export function sheetModule(model: SheetModel): Module {
  const editable = new Set(model.playerEditable);
  // A character, or a creature the ruleset keeps a sheet for (ADR 34): one id field addresses both.
  const known = (world: World, id: string): boolean => own(world.characters, id) !== undefined || model.creature?.(world, id) === true;
  const remover = model.remove;
  const removeHandler: CommandHandler | null =
    remover === undefined
      ? null
      : {
          label: 'remove a sheet',
          // No authorize: the engine's GM-only default (declared who: 'gm').
          decide(world, c) {
            const id = String(c['characterId']);
            if (!known(world, id)) return err(ErrorCode.NOT_FOUND, `characterId: no character ${JSON.stringify(id).slice(0, 80)}`, 'characterId');
            return remover(world, id);
          },
        };
  const handler: CommandHandler = {
    label: 'set a character sheet',
    authorize: (world, c, actor) => (controls(world, actor, c['characterId']) ? null : FORBIDDEN()),
    decide(world, c, env) {
      const id = String(c['characterId']);
      if (!known(world, id)) return err(ErrorCode.NOT_FOUND, `characterId: no character ${JSON.stringify(id).slice(0, 80)}`, 'characterId');
      const given = (c['sheet'] ?? {}) as Values;
      const current = model.read(world, id);
      const base = c['patch'] === true ? current : model.defaults;
      const next: Record<string, Json> = { ...base, ...given };
      const changed: Record<string, Json> = {};
      for (const k of Object.keys(model.fields)) if (Object.hasOwn(next, k) && !same(next[k], current[k])) changed[k] = next[k]!;
      if (env.actor.role !== 'gm') {
        // A player may resend GM-only fields unchanged (a whole sheet they were shown), never change them.
        const gmOnly = Object.keys(changed).find((k) => !editable.has(k));
        if (gmOnly !== undefined) return err(ErrorCode.FORBIDDEN, `sheet.${gmOnly}: only the GM may change this field`, `sheet.${gmOnly}`);
      }
      if (Object.keys(changed).length === 0) return ok([]);
      return model.write(world, id, next, changed, c['patch'] === true);
    },
  };
  // Answered on the asker's own view (the engine projects first): a player reads only a sheet their view holds.
  const get = defineQuery(sheetQuery, (world, { characterId: id }, viewer) => {
    if (!controls(world, viewer, id)) return err(ErrorCode.FORBIDDEN, "only the GM or the character's own player may open this sheet", 'characterId');
    if (!known(world, id)) return err(ErrorCode.NOT_FOUND, `characterId: no character ${JSON.stringify(id).slice(0, 80)}`, 'characterId');
    return ok({ sheet: model.read(world, id), playerEditable: [...model.playerEditable] });
  });
  // Players read a foe character's stats only by the ruleset's declared keys (ADR 33); a PC's or a seat's own pass as the core shows them.
  const fields = model.foeFields ?? { shown: [], defences: [] };
  const project: Projector = (world, viewer, source = world) => {
    if (viewer.role === 'gm') return world;
    const keys = foeKeys(source, viewer, fields);
    if (keys === null) return world;
    let characters: { [id: string]: Character } | null = null;
    for (const [id, c] of Object.entries(world.characters)) {
      if (Object.keys(c.stats).length === 0 || !isFoeCharacter(source, id)) continue;
      characters ??= { ...world.characters };
      characters[id] = { ...c, stats: pickKeys(c.stats, keys) as Character['stats'] };
    }
    return characters === null ? world : { ...world, characters };
  };
  // History carries the same stats (a character added with them, a sheet set): players read a foe's by the same keys.
  const statsView = (idField: string) => (world: World, e: EngineEvent): EngineEvent => {
    const stats = e['stats'];
    if (stats === undefined || stats === null || typeof stats !== 'object' || Array.isArray(stats) || !isFoeCharacter(world, String(e[idField]))) return e;
    const keys = foeKeys(world, { role: 'spectator' }, fields);
    return keys === null ? e : { ...e, stats: pickKeys(stats, keys) as Json };
  };
  const statsEvents = { 'character.added': 'id', 'character.updated': 'id', [SHEET_SET_EVENT]: 'id', ...model.statsEvents };
  return {
    id: SHEET_MODULE_ID,
    project,
    eventView: Object.fromEntries(Object.entries(statsEvents).map(([type, idField]) => [type, statsView(idField)])),
    eventViewBasis: (world) => foeBasis(world),
    projectReads: { reads: ['characters', 'seats', `ext.${FOES_ID}`], writes: ['characters'] },
    idStatus: () => undefined,
    commands: { [SHEET_SET]: handler, ...(removeHandler === null ? {} : { [SHEET_REMOVE]: removeHandler }) },
    // Undo words with whose sheet (core/undo-words.ts).
    words: { [SHEET_SET]: { say: ["{by}'s sheet"], by: ['characterId'] }, [SHEET_REMOVE]: { say: ["removing {by}'s sheet"], by: ['characterId'] } },
    queries: { [SHEET_GET]: get },
    catalog: { [SHEET_SET]: model.declaration, [SHEET_GET]: sheetQuery, ...(model.removal === null ? {} : { [SHEET_REMOVE]: model.removal }) },
    reducers: reducersOf(sheetEvolveOf(model.fields, model.defaults)),
    // The numbers are the character's: only those who may see its stats learn them.
    audience: audiencesOf<SheetEvent>({ 'character.sheetSet': (w, e) => { const c = own(w.characters, e.id); return c === undefined ? AUDIENCE_GM : audienceFor(c.visibility); } }),
  };
}
