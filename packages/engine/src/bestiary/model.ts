// A table's bestiary (issue 20): stat blocks the GM saves once and reuses to
// add foes, and encounter templates (a line-up to start the next fight from).
// GM-only state under world.ext.bestiary; players and spectators never get it.
import type { Json, World } from '../core/types.js';
import { fromJson } from '../core/events.js';

export const BESTIARY_ID = 'bestiary';
export const MAX_ENTRIES = 200;
export const MAX_TEMPLATES = 50;
export const MAX_IMPORT = 100;
/** Lines in one template (a line may stand for a group: "Goblin" x6). */
export const MAX_TEMPLATE_LINES = 100;
export const MAX_GROUP = 50;
export const MAX_ENTRY_NAME = 80;
export const MAX_NOTES = 1000;

/** One stat block: the ruleset's own fields in `block` (hit points, initiative values, defences...). */
export interface BestiaryEntry {
  readonly id: string;
  readonly name: string;
  readonly notes: string;
  readonly block: { readonly [key: string]: Json };
}

/** One row of a template: a character, a bestiary foe or a named foe, `count` of them. */
export interface TemplateLine {
  readonly name: string;
  readonly count: number;
  readonly kind: 'pc' | 'npc';
  readonly hidden: boolean;
  readonly characterId?: string;
  readonly entryId?: string;
  readonly hp?: number;
  readonly init?: { readonly [key: string]: string | number };
}

export interface EncounterTemplate {
  readonly id: string;
  readonly name: string;
  readonly lines: readonly TemplateLine[];
}

export interface BestiaryState {
  readonly entries: { readonly [id: string]: BestiaryEntry };
  readonly templates: { readonly [id: string]: EncounterTemplate };
}

export const EMPTY_BESTIARY: BestiaryState = { entries: {}, templates: {} };

type Obj = { readonly [k: string]: Json };
const isObj = (v: Json | undefined): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The bestiary a viewer's world holds: the GM's; empty on a player's or spectator's view (issue 17: the web's reader). */
export const bestiaryIn = (world: World): BestiaryState => bestiaryOf(world.ext);

/** The bestiary of a world (empty when the table has none yet). */
export function bestiaryOf(ext: { readonly [k: string]: Json }): BestiaryState {
  const b = Object.hasOwn(ext, BESTIARY_ID) ? ext[BESTIARY_ID] : undefined;
  if (!isObj(b)) return EMPTY_BESTIARY;
  return {
    entries: fromJson<BestiaryState['entries']>(isObj(b['entries']) ? b['entries'] : {}),
    templates: fromJson<BestiaryState['templates']>(isObj(b['templates']) ? b['templates'] : {}),
  };
}
