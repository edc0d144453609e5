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

/** A stat block's schema: a strict object of the ruleset's fields, each with its limits. */
export type StatBlockSchema = z.ZodType<{ [k: string]: Json }>;

/** Used when a ruleset declares no stat block of its own: hit points only. (A function: no zod work when a browser bundle imports the engine.) */
export const genericStatBlock = (): StatBlockSchema => z.strictObject({ hp: int(1, 10000, 'hit points').optional() }) as unknown as StatBlockSchema;

const entryId = (description = 'a bestiary entry id') => z.string().min(1).max(64).meta({ description, 'x-ref': 'bestiaryEntry' });
const templateId = (description = 'an encounter template id') => z.string().min(1).max(64).meta({ description, 'x-ref': 'encounterTemplate' });
const name = () => z.string().trim().min(1).max(MAX_ENTRY_NAME).meta({ description: 'the name the GM sees' });
const notes = () => text(MAX_NOTES, 'what the foe does, in the GM\'s words').optional();

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
  return { ...world, ext: { ...world.ext, [BESTIARY_ID]: f(stateOf(world)) as unknown as Json } };
}

const gmLog = (world: World, kind: string, textLine: string): World => appendLog(world, { audience: AUDIENCE_GM, kind, text: textLine });

function commandsFor(block: StatBlockSchema): DefinedCommand<z.ZodType>[] {
  const entryInput = z.strictObject({ name: name(), notes: notes(), block });
  return [
    defineCommand('bestiary.save', {
      summary: 'Save a stat block in the bestiary (a new entry, or replace the one named by id)',
      who: 'gm',
      label: 'save a stat block',
      input: z.strictObject({ id: entryId('the entry to replace (leave out for a new one)').optional(), name: name(), notes: notes(), block }),
      decide(world, p, env) {
        const s = stateOf(world);
        if (p.id !== undefined && own(s.entries, p.id) === undefined) return err(ErrorCode.NOT_FOUND, `no bestiary entry ${p.id}`, 'id');
        if (p.id === undefined && Object.keys(s.entries).length >= MAX_ENTRIES) return err(ErrorCode.LIMIT_EXCEEDED, `a bestiary may hold at most ${MAX_ENTRIES} stat blocks`, 'name');
        const id = p.id ?? mintId(world, 'be', env.rng)[0];
        const entry: BestiaryEntry = { id, name: p.name, notes: p.notes ?? '', block: p.block };
        return ok([{ type: 'bestiary.saved', entry: entry as unknown as Json, replaced: p.id !== undefined }]);
      },
    }),
    defineCommand('bestiary.remove', {
      summary: 'Remove a stat block from the bestiary (foes already added keep their numbers)',
      who: 'gm',
      label: 'remove a stat block',
      input: z.strictObject({ id: entryId() }),
      decide(world, p) {
        const e = own(stateOf(world).entries, p.id);
        if (e === undefined) return err(ErrorCode.NOT_FOUND, `no bestiary entry ${p.id}`, 'id');
        return ok([{ type: 'bestiary.removed', id: e.id, name: e.name }]);
      },
    }),
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
        return ok([{ type: 'bestiary.imported', entries: entries as unknown as Json }]);
      },
    }),
    defineCommand('bestiary.saveTemplate', {
      summary: 'Save an encounter line-up as a template (a new one, or replace the one named by id)',
      who: 'gm',
      label: 'save an encounter template',
      input: z.strictObject({ id: templateId('the template to replace (leave out for a new one)').optional(), name: name(), lines: z.array(templateLine()).min(1).max(MAX_TEMPLATE_LINES) }),
      decide(world, p, env) {
        const s = stateOf(world);
        if (p.id !== undefined && own(s.templates, p.id) === undefined) return err(ErrorCode.NOT_FOUND, `no encounter template ${p.id}`, 'id');
        if (p.id === undefined && Object.keys(s.templates).length >= MAX_TEMPLATES) return err(ErrorCode.LIMIT_EXCEEDED, `a table may keep at most ${MAX_TEMPLATES} encounter templates`, 'name');
        const total = p.lines.reduce((n, l) => n + l.count, 0);
        if (total > 200) return err(ErrorCode.LIMIT_EXCEEDED, `an encounter may have at most 200 combatants; this template has ${total}`, 'lines');
        const id = p.id ?? mintId(world, 'tpl', env.rng)[0];
        const template: EncounterTemplate = { id, name: p.name, lines: p.lines };
        return ok([{ type: 'bestiary.templateSaved', template: template as unknown as Json, replaced: p.id !== undefined }]);
      },
    }),
    defineCommand('bestiary.removeTemplate', {
      summary: 'Remove an encounter template',
      who: 'gm',
      label: 'remove an encounter template',
      input: z.strictObject({ id: templateId() }),
      decide(world, p) {
        const t = own(stateOf(world).templates, p.id);
        if (t === undefined) return err(ErrorCode.NOT_FOUND, `no encounter template ${p.id}`, 'id');
        return ok([{ type: 'bestiary.templateRemoved', id: t.id, name: t.name }]);
      },
    }),
  ];
}

const reducers: Module['reducers'] = {
  'bestiary.saved': (w, e) => {
    const entry = e['entry'] as unknown as BestiaryEntry;
    const next = withState(e['replaced'] === true ? w : claimId(w, entry.id), (s) => ({ ...s, entries: { ...s.entries, [entry.id]: entry } }));
    return gmLog(next, 'bestiary.saved', `${entry.name} is in the bestiary.`);
  },
  'bestiary.removed': (w, e) => {
    const next = withState(w, (s) => {
      const entries = { ...s.entries };
      delete entries[String(e['id'])];
      return { ...s, entries };
    });
    return gmLog(next, 'bestiary.removed', `${String(e['name'])} is out of the bestiary.`);
  },
  'bestiary.imported': (w, e) => {
    const list = e['entries'] as unknown as BestiaryEntry[];
    let next = w;
    for (const x of list) next = claimId(next, x.id);
    next = withState(next, (s) => ({ ...s, entries: { ...s.entries, ...Object.fromEntries(list.map((x) => [x.id, x])) } }));
    return gmLog(next, 'bestiary.imported', `${list.length} stat block${list.length === 1 ? '' : 's'} added to the bestiary.`);
  },
  'bestiary.templateSaved': (w, e) => {
    const t = e['template'] as unknown as EncounterTemplate;
    const next = withState(e['replaced'] === true ? w : claimId(w, t.id), (s) => ({ ...s, templates: { ...s.templates, [t.id]: t } }));
    return gmLog(next, 'bestiary.templateSaved', `Encounter template "${t.name}" saved.`);
  },
  'bestiary.templateRemoved': (w, e) => {
    const next = withState(w, (s) => {
      const templates = { ...s.templates };
      delete templates[String(e['id'])];
      return { ...s, templates };
    });
    return gmLog(next, 'bestiary.templateRemoved', `Encounter template "${String(e['name'])}" removed.`);
  },
};

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

