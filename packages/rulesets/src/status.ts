// What a table shows, as one query per ruleset (issue 17): `<ns>.status`
// answers with the encounter's round and turn, the escalation die and the
// current turn's pools, plus the ruleset's own trackers, so a client never
// recomputes a rule. The engine answers queries on the asker's projected
// world, so a player's answer holds only what their view holds.
import { declareQuery, defineQuery, getEncounter, own, type EncounterKit, type Json, type Module, type World } from '@tablekeeper/engine';
import { z } from 'zod';

export const encounterStatusSchema = z
  .strictObject({
    /** Which fight this is at the table (1 for the first). */
    number: z.int().nullable(),
    round: z.int().min(0),
    currentId: z.string().nullable(),
    currentName: z.string().nullable(),
    /** Who has taken their turn this round. */
    acted: z.array(z.string()),
    /** What the current turn has left in each pool of the action economy. */
    remaining: z.record(z.string(), z.int()),
    /** The escalation die (002), null where the ruleset has none. */
    escalation: z.int().min(0).nullable(),
  })
  .nullable()
  .meta({ description: 'the running encounter, or null between fights' });

export type EncounterStatus = z.output<typeof encounterStatusSchema>;

/** The running encounter as the viewer's world shows it (null between fights). */
export function encounterStatus(world: World, kit: EncounterKit, opts: { readonly escalation?: boolean } = {}): EncounterStatus {
  const enc = getEncounter(world);
  if (!enc.active) return null;
  const current = enc.current !== null ? own(enc.combatants, enc.current) : undefined;
  const remaining: Record<string, number> = {};
  if (current !== undefined) {
    const eco = kit.economy(world, current.id);
    for (const [pool, def] of Object.entries(kit.rules.economy.pools)) remaining[pool] = Math.max(0, def.size + (eco.granted[pool] ?? 0) - (eco.spent[pool] ?? 0));
  }
  return {
    number: enc.number ?? null,
    round: enc.round,
    currentId: current?.id ?? null,
    currentName: current?.name ?? null,
    acted: enc.acted.filter((id) => own(enc.combatants, id) !== undefined),
    remaining,
    escalation: opts.escalation === true ? kit.escalation(world) : null,
  };
}

export const clockStatusSchema = z.strictObject({ seconds: z.int().min(0), hour: z.int().min(0).max(23) });
export const clockStatus = (world: World) => ({ seconds: world.clock.seconds, hour: Math.floor(world.clock.seconds / 3600) % 24 });

/** A module with one query, `<ns>.status`, declared with its result schema (everyone may ask, spectators too: ADR 39). */
export function statusModule<R extends z.ZodType>(ns: string, summary: string, result: R, answer: (world: World) => z.output<R>): Module {
  const type = `${ns}.status`;
  const declaration = declareQuery(type, { summary, who: 'everyone', input: z.strictObject({}), result });
  return { id: `${ns}-status`, queries: { [type]: defineQuery(declaration, (world) => ({ ok: true, value: answer(world) as Json })) }, catalog: { [type]: declaration } };
}
