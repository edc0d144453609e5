// Reducers keyed by a module's event union (../shared/STYLE.md "Type the
// events"): each reducer receives its own member of the union, so a field
// read is checked against what the decider writes. The engine hands events
// over already upcast (ADR 28), so the union names only today's fields.
import type { EngineEvent, Reducer, World } from '@tablekeeper/engine';

/** The member of union `U` whose type is `T`. */
export type EventOf<U extends { readonly type: string }, T extends U['type']> = Extract<U, { readonly type: T }>;

/** One reducer per event type of `U`, each taking its typed event. */
export type TypedReducers<U extends { readonly type: string }> = { readonly [T in U['type']]?: (world: World, event: EventOf<U, T>) => World };

/**
 * The engine's untyped reducer table from typed reducers. The one cast is
 * here: the engine calls a reducer only with events of its key's type.
 */
export function reducersOf<U extends EngineEvent>(reducers: TypedReducers<U>): Record<string, Reducer> {
  return reducers as unknown as Record<string, Reducer>;
}
