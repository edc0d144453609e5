// A table's own conditions (issue 20, ADR 71): a GM types "Marked by the Duke"
// once, saves it with a description and a usual duration, and every condition
// picker at the table offers it beside the ruleset's catalogue. Applied as the
// kernel's custom condition ("custom:<name>"), so an instance never depends on
// the saved entry: editing or removing it leaves conditions already on
// creatures as they are. Browser-safe: no zod (`@tablekeeper/engine/custom-conditions`).
import type { Json, World } from '../core/types.js';
import { fromJson } from '../core/events.js';

export const CUSTOM_CONDITIONS_ID = 'customConditions';
/** Saved conditions per table. */
export const MAX_SAVED_CONDITIONS = 100;
/** As the kernel's custom condition name (MAX_CUSTOM_CONDITION). */
export const MAX_SAVED_CONDITION_NAME = 40;
export const MAX_CONDITION_DESCRIPTION = 300;

/** The usual duration, as the picker offers it; "turnEnd" is the bearer's next turn end. */
export type SavedDuration =
  | { readonly kind: 'rounds'; readonly rounds: number }
  | { readonly kind: 'turnEnd' }
  | { readonly kind: 'saveEnds' }
  | { readonly kind: 'encounterEnd' }
  | { readonly kind: 'indefinite' };

export interface SavedCondition {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly duration: SavedDuration;
}

export interface CustomConditionsState {
  readonly saved: { readonly [id: string]: SavedCondition };
}

export const NO_SAVED_CONDITIONS: CustomConditionsState = { saved: {} };

const isObj = (v: Json | undefined): v is { readonly [k: string]: Json } => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The table's saved conditions (none when it has saved none yet). */
export function customConditionsOf(world: Pick<World, 'ext'> | undefined): CustomConditionsState {
  const raw = world !== undefined && Object.hasOwn(world.ext, CUSTOM_CONDITIONS_ID) ? world.ext[CUSTOM_CONDITIONS_ID] : undefined;
  if (!isObj(raw) || !isObj(raw['saved'])) return NO_SAVED_CONDITIONS;
  return fromJson<CustomConditionsState>(raw);
}

/** The saved conditions sorted by name, for pickers and the list. */
export function savedConditions(world: Pick<World, 'ext'> | undefined): readonly SavedCondition[] {
  return Object.values(customConditionsOf(world).saved).sort((a, b) => a.name.localeCompare(b.name));
}

/** The condition id an applied saved condition carries (the kernel's custom prefix). */
export const savedConditionId = (name: string): string => `custom:${name}`;
