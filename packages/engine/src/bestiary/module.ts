// The bestiary module: stat blocks and encounter templates saved on the table
// as events, so they replay, undo and stay the GM's (default-deny: the
// projector drops the whole state for everyone else, and every event's
// audience is the GM). The ruleset supplies the stat block's schema, so the
// web builds the form from the catalogue and the server checks every field.
import { z } from 'zod';
import { catalogOf, defineCommand, int, text, type DefinedCommand } from '../core/catalog.js';
import { claimId, mintId } from '../core/ids.js';
import { appendLog } from '../core/log.js';
import { own } from '../core/own.js';
import { err, ErrorCode, ok } from '../core/result.js';
import type { Json, Module, World } from '../core/types.js';
import { AUDIENCE_GM } from '../core/visibility.js';
import {
  BESTIARY_ID,
  bestiaryOf,
  MAX_ENTRIES,
  MAX_ENTRY_NAME,
  MAX_GROUP,
  MAX_IMPORT,
  MAX_NOTES,
  MAX_TEMPLATE_LINES,
  MAX_TEMPLATES,
  type BestiaryEntry,
  type BestiaryState,
  type EncounterTemplate,
} from './model.js';
import { asJson, reducersOf, stored, type Evolve } from '../core/events.js';
import type { BestiaryEvent, Saved } from './events.js';

/** A stat block's schema: a strict object of the ruleset's fields, each with its limits. */
export type StatBlockSchema = z.ZodType<{ [k: string]: Json }>;

/** Used when a ruleset declares no stat block of its own: hit points only. (A function: no zod work when a browser bundle imports the engine.) */
export const genericStatBlock = (): StatBlockSchema => z.strictObject({ hp: int(1, 10000, 'hit points').meta({ title: 'HP' }).optional() }) as unknown as StatBlockSchema;

const entryId = (description = 'a bestiary entry id') => z.string().min(1).max(64).meta({ description, 'x-ref': 'bestiaryEntry' });
const templateId = (description = 'an encounter template id') => z.string().min(1).max(64).meta({ description, 'x-ref': 'encounterTemplate' });
// Labels capitalised as the forms show them (review 10: "name", "notes", "block" read raw).
const name = () => z.string().trim().min(1).max(MAX_ENTRY_NAME).meta({ title: 'Name', description: 'the name the GM sees' });
const notes = () => text(MAX_NOTES, 'what the foe does, in the GM\'s words').meta({ title: 'Notes' }).optional();

const templateLine = () =>
  z.strictObject({
    name: name(),
    count: int(1, MAX_GROUP, 'how many (a group: Goblin 1 to Goblin N)'),
    kind: z.enum(['pc', 'npc']),
    hidden: z.boolean(),
    characterId: z.string().min(1).max(64).meta({ description: 'the character it stands for', 'x-ref': 'character' }).optional(),
    entryId: entryId('the bestiary entry it was added from').optional(),
    hp: int(1, 10000, 'hit points typed for it').optional(),
    init: z.record(z.string().min(1).max(32), z.union([z.string().max(64), int(-1000, 1000)])).optional().meta({ description: "the ruleset's initiative values (DEX, band, team, Edge Save...)" }),
  });

function stateOf(world: World): BestiaryState {
  return bestiaryOf(world.ext);
}

function withState(world: World, f: (s: BestiaryState) => BestiaryState): World {
  return { ...world, ext: { ...world.ext, [BESTIARY_ID]: asJson(f(stateOf(world))) } };
}

const gmLog = (world: World, kind: string, textLine: string): World => appendLog(world, { audience: AUDIENCE_GM, kind, text: textLine });

/**
 * The bestiary's two collections, stat blocks and encounter templates, share
 * one save/remove path (a review finding: they were written twice). Event
 * names and fields stay as recorded, so old tables replay unchanged.
 */
interface Collection<T extends Saved> {
  readonly key: 'entries' | 'templates';
  /** "no bestiary entry be_1" / "no encounter template tpl_1". */
  readonly noun: string;
  readonly idPrefix: string;
  readonly max: number;
  readonly full: string;
  readonly save: { readonly type: string; readonly summary: string; readonly label: string; readonly event: string };
  readonly remove: { readonly type: string; readonly summary: string; readonly label: string; readonly event: string };
  /** The stored event of a save: the item whole, under its collection's field. */
  readonly saved: (item: T, replaced: boolean) => BestiaryEvent;
  readonly savedLine: (name: string) => string;
  readonly removedLine: (name: string) => string;
}

const ENTRIES: Collection<BestiaryEntry> = {
  key: 'entries',
  noun: 'bestiary entry',
  idPrefix: 'be',
  max: MAX_ENTRIES,
  full: `a bestiary may hold at most ${MAX_ENTRIES} stat blocks`,
  save: { type: 'bestiary.save', summary: 'Save a stat block in the bestiary (a new entry, or replace the one named by id)', label: 'save a stat block', event: 'bestiary.saved' },
  remove: { type: 'bestiary.remove', summary: 'Remove a stat block from the bestiary (foes already added keep their numbers)', label: 'remove a stat block', event: 'bestiary.removed' },
  saved: (entry, replaced) => ({ type: 'bestiary.saved', entry, replaced }),
  savedLine: (n) => `${n} is in the bestiary.`,
  removedLine: (n) => `${n} is out of the bestiary.`,
};

const TEMPLATES: Collection<EncounterTemplate> = {
  key: 'templates',
  noun: 'encounter template',
  idPrefix: 'tpl',
  max: MAX_TEMPLATES,
  full: `a table may keep at most ${MAX_TEMPLATES} encounter templates`,
  save: { type: 'bestiary.saveTemplate', summary: 'Save an encounter line-up as a template (a new one, or replace the one named by id)', label: 'save an encounter template', event: 'bestiary.templateSaved' },
  remove: { type: 'bestiary.removeTemplate', summary: 'Remove an encounter template', label: 'remove an encounter template', event: 'bestiary.templateRemoved' },
  saved: (template, replaced) => ({ type: 'bestiary.templateSaved', template, replaced }),
  savedLine: (n) => `Encounter template "${n}" saved.`,
  removedLine: (n) => `Encounter template "${n}" removed.`,
};


/**
 * `save` and `remove` for one collection; `input` declares the item's own
 * fields, `check` names a limit the schema cannot (a template's head count),
 * `make` builds the stored item from the payload and its id.
 */
function collectionCommands<I extends z.ZodObject, T extends Saved>(
  c: Collection<T>,
  fields: I,
  make: (p: z.infer<I>, id: string) => T,
  check: (p: z.infer<I>) => { message: string; path: string } | null = () => null,
): DefinedCommand<z.ZodType>[] {
  const idField = c.key === 'entries' ? entryId : templateId;
  return [
    defineCommand(c.save.type, {
      summary: c.save.summary,
      who: 'gm',
      label: c.save.label,
      // The id first, as the form and the command docs have always listed it.
      input: z.strictObject({ id: idField(`the ${c.key === 'entries' ? 'entry' : 'template'} to replace (leave out for a new one)`).optional(), ...fields.shape }),
      decide(world, p, env) {
        const items: { readonly [id: string]: Saved } = stateOf(world)[c.key];
        const id = (p as { id?: string }).id;
        if (id !== undefined && own(items, id) === undefined) return err(ErrorCode.NOT_FOUND, `no ${c.noun} ${id}`, 'id');
        if (id === undefined && Object.keys(items).length >= c.max) return err(ErrorCode.LIMIT_EXCEEDED, c.full, 'name');
        const refused = check(p as z.infer<I>);
        if (refused !== null) return err(ErrorCode.LIMIT_EXCEEDED, refused.message, refused.path);
        const item = make(p as z.infer<I>, id ?? mintId(world, c.idPrefix, env.rng)[0]);
        return ok([stored(c.saved(item, id !== undefined))]);
      },
    }),
    defineCommand(c.remove.type, {
      summary: c.remove.summary,
      who: 'gm',
      label: c.remove.label,
      input: z.strictObject({ id: idField() }),
      decide(world, p) {
        const items: { readonly [id: string]: Saved } = stateOf(world)[c.key];
        const item = own(items, p.id);
        if (item === undefined) return err(ErrorCode.NOT_FOUND, `no ${c.noun} ${p.id}`, 'id');
        return ok([{ type: c.remove.event, id: item.id, name: item.name }]);
      },
    }),
  ];
}

/** One collection's save (a new item claims its id; a replacement keeps it). `replaced` absent: a new item. */
const savedIn =
  <T extends Saved>(c: Collection<T>) =>
  (w: World, item: T, replaced: boolean | undefined): World => {
    const next = withState(replaced === true ? w : claimId(w, item.id), (s) => ({ ...s, [c.key]: { ...s[c.key], [item.id]: item } }));
    return gmLog(next, c.save.event, c.savedLine(item.name));
  };

/** One collection's remove. */
const removedFrom =
  <T extends Saved>(c: Collection<T>) =>
  (w: World, e: { readonly id: string; readonly name: string }): World => {
    const next = withState(w, (s) => {
      const items = { ...s[c.key] };
      delete items[e.id];
      return { ...s, [c.key]: items };
    });
    return gmLog(next, c.remove.event, c.removedLine(e.name));
  };

function commandsFor(block: StatBlockSchema): DefinedCommand<z.ZodType>[] {
  const entryInput = z.strictObject({ name: name(), notes: notes(), block: block.meta({ title: 'Stat block' }) });
  return [
    ...collectionCommands(ENTRIES, entryInput, (p, id): BestiaryEntry => ({ id, name: p.name, notes: p.notes ?? '', block: p.block })),
    defineCommand('bestiary.import', {
      summary: 'Add stat blocks from a bestiary file or the ruleset\'s starters (each a new entry)',
      who: 'gm',
      label: 'import stat blocks',
      input: z.strictObject({ entries: z.array(entryInput).min(1).max(MAX_IMPORT) }),
      decide(world, p, env) {
        const have = Object.keys(stateOf(world).entries).length;
        if (have + p.entries.length > MAX_ENTRIES)
          return err(ErrorCode.LIMIT_EXCEEDED, `a bestiary may hold at most ${MAX_ENTRIES} stat blocks; it has ${have} and the file brings ${p.entries.length}`, 'entries');
        let w = world;
        const entries: BestiaryEntry[] = [];
        for (const e of p.entries) {
          const [id, next] = mintId(w, 'be', env.rng);
          w = next;
          entries.push({ id, name: e.name, notes: e.notes ?? '', block: e.block });
        }
        return ok([stored<BestiaryEvent>({ type: 'bestiary.imported', entries })]);
      },
    }),
    ...collectionCommands(
      TEMPLATES,
      z.strictObject({ name: name(), lines: z.array(templateLine()).min(1).max(MAX_TEMPLATE_LINES) }),
      (p, id): EncounterTemplate => ({ id, name: p.name, lines: p.lines }),
      (p) => {
        const total = p.lines.reduce((n, l) => n + l.count, 0);
        return total > 200 ? { message: `an encounter may have at most 200 combatants; this template has ${total}`, path: 'lines' } : null;
      },
    ),
  ];
}

const evolve: Evolve<BestiaryEvent> = {
  'bestiary.saved': (w, e) => savedIn(ENTRIES)(w, e.entry, e.replaced),
  'bestiary.removed': removedFrom(ENTRIES),
  'bestiary.imported': (w, e) => {
    const list = e.entries;
    let next = w;
    for (const x of list) next = claimId(next, x.id);
    next = withState(next, (s) => ({ ...s, entries: { ...s.entries, ...Object.fromEntries(list.map((x) => [x.id, x])) } }));
    return gmLog(next, 'bestiary.imported', `${list.length} stat block${list.length === 1 ? '' : 's'} added to the bestiary.`);
  },
  'bestiary.templateSaved': (w, e) => savedIn(TEMPLATES)(w, e.template, e.replaced),
  'bestiary.templateRemoved': removedFrom(TEMPLATES),
};
const reducers = reducersOf(evolve);

const gmOnly = (): typeof AUDIENCE_GM => AUDIENCE_GM;

/** The bestiary for a ruleset whose stat blocks have `block`'s fields. */
export function bestiaryModule(block: StatBlockSchema = genericStatBlock()): Module {
  const defined = commandsFor(block);
  return {
    id: BESTIARY_ID,
    commands: Object.fromEntries(defined.map((d) => [d.declaration.type, d.handler])),
    catalog: catalogOf(...defined.map((d) => d.declaration)),
    reducers,
    // Default-deny: nobody but the GM receives any of it.
    project(world, viewer) {
      if (viewer.role === 'gm' || !Object.hasOwn(world.ext, BESTIARY_ID)) return world;
      const ext = { ...world.ext };
      delete ext[BESTIARY_ID];
      return { ...world, ext };
    },
    projectReads: { reads: [`ext.${BESTIARY_ID}`], writes: [`ext.${BESTIARY_ID}`] },
    // Every entry and template is the GM's (ADR 18): a player naming one gets the missing-id refusal.
    idStatus(world, viewer, id) {
      const b = bestiaryOf(world.ext);
      if (own(b.entries, id) === undefined && own(b.templates, id) === undefined) return undefined;
      return viewer.role === 'gm' ? 'shown' : 'hidden';
    },
    audience: Object.fromEntries(Object.keys(reducers!).map((t) => [t, gmOnly])),
  };
}

