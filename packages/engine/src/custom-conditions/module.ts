// The table's own conditions (issue 20, ADR 71): `customCondition.save` (new,
// or replace the one named by id) and `customCondition.remove`, by the GM, as
// events, so they replay and undo. Everyone at the table sees the list (a
// player's "Ask the GM" form offers it too).
import { z } from 'zod';
import { catalogOf, defineCommand, int, text, type DefinedCommand } from '../core/catalog.js';
import { claimId, mintId } from '../core/ids.js';
import { appendLog } from '../core/log.js';
import { own } from '../core/own.js';
import { err, ErrorCode, ok } from '../core/result.js';
import { asJson, reducersOf, stored, type Evolve } from '../core/events.js';
import type { Module, World } from '../core/types.js';
import { AUDIENCE_ALL } from '../core/visibility.js';
import {
  CUSTOM_CONDITIONS_ID,
  customConditionsOf,
  MAX_CONDITION_DESCRIPTION,
  MAX_SAVED_CONDITION_NAME,
  MAX_SAVED_CONDITIONS,
  type CustomConditionsState,
  type SavedCondition,
} from './model.js';

const savedId = (description = 'a saved condition id') => z.string().min(1).max(64).meta({ description, 'x-ref': 'savedCondition' });

const duration = () =>
  z
    .discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('rounds'), rounds: int(1, 1000, 'how many rounds') }),
      z.strictObject({ kind: z.literal('turnEnd') }),
      z.strictObject({ kind: z.literal('saveEnds') }),
      z.strictObject({ kind: z.literal('encounterEnd') }),
      z.strictObject({ kind: z.literal('indefinite') }),
    ])
    .meta({ description: "how long it usually lasts (turnEnd: the end of the bearer's next turn); the picker starts on it" });

const saveInput = z.strictObject({
  id: savedId('the saved condition to replace (leave out for a new one)').optional(),
  name: z.string().trim().min(1).max(MAX_SAVED_CONDITION_NAME).meta({ description: 'its name on the tracker' }),
  description: text(MAX_CONDITION_DESCRIPTION, 'what it means at this table').optional(),
  duration: duration(),
});

const put = (w: World, s: CustomConditionsState): World => ({ ...w, ext: { ...w.ext, [CUSTOM_CONDITIONS_ID]: asJson(s) } });
const log = (w: World, kind: string, line: string): World => appendLog(w, { audience: AUDIENCE_ALL, kind, text: line });
/** Names are what an applied condition carries, so two saved ones may not differ only in case or spacing. */
const key = (name: string): string => name.trim().replace(/\s+/g, ' ').toLowerCase();

const defined: DefinedCommand<z.ZodType>[] = [
  defineCommand('customCondition.save', {
    summary: "Save a table condition (name, description, usual duration) for every condition picker; with id, replace it",
    who: 'gm',
    label: 'save a condition for this table',
    input: saveInput,
    decide(world, p, env) {
      const saved = customConditionsOf(world).saved;
      if (p.id !== undefined && own(saved, p.id) === undefined) return err(ErrorCode.NOT_FOUND, `no saved condition ${p.id}`, 'id');
      if (p.id === undefined && Object.keys(saved).length >= MAX_SAVED_CONDITIONS) return err(ErrorCode.LIMIT_EXCEEDED, `a table may save at most ${MAX_SAVED_CONDITIONS} conditions of its own`, 'name');
      const name = p.name.replace(/\s+/g, ' ');
      const twin = Object.values(saved).find((s) => s.id !== p.id && key(s.name) === key(name));
      if (twin !== undefined) return err(ErrorCode.INVALID_VALUE, `this table already has a condition named "${twin.name}"; edit that one instead`, 'name');
      const condition: SavedCondition = { id: p.id ?? mintId(world, 'sc', env.rng)[0], name, description: (p.description ?? '').trim(), duration: p.duration };
      return ok([stored<CustomConditionEvent>({ type: 'customCondition.saved', condition, replaced: p.id !== undefined })]);
    },
  }),
  defineCommand('customCondition.remove', {
    summary: "Remove a condition from the table's own list (creatures that have it keep it until it ends)",
    who: 'gm',
    label: 'remove a saved condition',
    input: z.strictObject({ id: savedId() }),
    decide(world, p) {
      const c = own(customConditionsOf(world).saved, p.id);
      if (c === undefined) return err(ErrorCode.NOT_FOUND, `no saved condition ${p.id}`, 'id');
      return ok([stored<CustomConditionEvent>({ type: 'customCondition.removed', id: c.id, name: c.name })]);
    },
  }),
];

/** The module's events, as stored. */
export type CustomConditionEvent =
  | { readonly type: 'customCondition.saved'; readonly condition: SavedCondition; readonly replaced: boolean }
  | { readonly type: 'customCondition.removed'; readonly id: string; readonly name: string };

const evolve: Evolve<CustomConditionEvent> = {
  'customCondition.saved': (w, e) => {
    const c = e.condition;
    const replaced = e.replaced;
    const s = customConditionsOf(w);
    const next = put(replaced ? w : claimId(w, c.id), { ...s, saved: { ...s.saved, [c.id]: c } });
    return log(next, 'customCondition.saved', replaced ? `The table's condition "${c.name}" was changed.` : `"${c.name}" is now one of this table's conditions.`);
  },
  'customCondition.removed': (w, e) => {
    const s = customConditionsOf(w);
    const saved = { ...s.saved };
    delete saved[e.id];
    return log(put(w, { ...s, saved }), 'customCondition.removed', `"${e.name}" is no longer one of this table's conditions.`);
  },
};
const reducers: Module['reducers'] = reducersOf(evolve);

/** Every table's own conditions, whatever the ruleset (they carry no rules effect). */
export const customConditionsModule: Module = {
  id: CUSTOM_CONDITIONS_ID,
  commands: Object.fromEntries(defined.map((d) => [d.declaration.type, d.handler])),
  catalog: catalogOf(...defined.map((d) => d.declaration)),
  reducers,
  // Shown to everyone, field by field (ADR 33): a key the state gains later stays with the GM until this says otherwise.
  project(world, viewer) {
    if (viewer.role === 'gm' || !Object.hasOwn(world.ext, CUSTOM_CONDITIONS_ID)) return world;
    const saved = Object.fromEntries(
      Object.values(customConditionsOf(world).saved).map((c): [string, SavedCondition] => [c.id, { id: c.id, name: c.name, description: c.description, duration: c.duration }]),
    );
    return put(world, { saved });
  },
  projectReads: { reads: [`ext.${CUSTOM_CONDITIONS_ID}`], writes: [`ext.${CUSTOM_CONDITIONS_ID}`] },
  // Nothing in it is secret: everyone at the table may name a saved condition.
  idStatus: (world, _viewer, id) => (own(customConditionsOf(world).saved, id) === undefined ? undefined : 'shown'),
};
