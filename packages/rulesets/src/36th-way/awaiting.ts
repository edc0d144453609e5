// Who may answer a provocation now on a 36th Way table (002 "Opportunity
// Attacks"; review 9: the log named the opportunity attack and nothing let
// anyone take it), for the browser. Read from the viewer's own world, so a
// phone sees only what its view holds. Type imports only (ADR 7).
import type { Json, World } from '@tablekeeper/engine';

/** A creature entitled to an opportunity attack now: its sheet id and the character it plays, if any. */
export interface TswAwaiting {
  readonly sheetId: string;
  readonly characterId: string | null;
}

type Obj = { readonly [k: string]: Json };
const obj = (v: Json | undefined): Obj | null => (v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v) ? v : null);

/** Each creature some open provocation lets attack, sorted by sheet id, each once. */
export function tswAwaiting(world: World): readonly TswAwaiting[] {
  if (world.rulesetId !== '36th-way') return [];
  const st = obj(world.ext['36th-way']);
  const provs = st?.['provocations'];
  if (st === null || !Array.isArray(provs)) return [];
  const sheets = obj(st['sheets']) ?? {};
  const ids = new Set<string>();
  for (const p of provs) for (const x of (obj(p)?.['against'] as Json[] | undefined) ?? []) if (typeof x === 'string') ids.add(x);
  return [...ids].sort().map((id) => {
    const c = obj(sheets[id])?.['characterId'];
    return { sheetId: id, characterId: typeof c === 'string' ? c : null };
  });
}
