// Who may answer a Move now on a Kleptonomicon table (004 "Movement Reactions": an Opportunity Attack on someone
// who left their Swinging Distance), for the browser. Read from the viewer's own world, so a phone sees only what
// its view holds. Type imports only (ADR 7).
import type { Json, World } from '@tablekeeper/engine';

type Obj = { readonly [k: string]: Json };
const obj = (v: Json | undefined): Obj | null => (v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v) ? v : null);

/** Combatant ids with an Opportunity Attack open now, sorted. */
export function kleptoAwaiting(world: World): readonly string[] {
  if (world.rulesetId !== 'kleptonomicon') return [];
  return Object.keys(obj(obj(world.ext['kleptonomicon'])?.['opportunities']) ?? {}).sort();
}
