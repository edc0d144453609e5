// Typed events (STYLE 2): a module declares its event union; its reducers and
// reactions receive the member a type names instead of reading untyped fields.
import type { EngineEvent, Env, Reaction, Reducer, World } from './types.js';

/** Any member of an event union: a type plus its fields. */
export interface TypedEvent {
  readonly type: string;
}

/** The member of union `E` whose type is `T`. */
export type EventOf<E extends TypedEvent, T extends E['type']> = Extract<E, { readonly type: T }>;

/** One reducer per event type of the union, each receiving its own member. */
export type Evolve<E extends TypedEvent> = { readonly [T in E['type']]: (world: World, event: EventOf<E, T>) => World };

/**
 * A module's reducers from a typed map. The engine hands a reducer only events of
 * its type, and stored events reach it under today's names (the upcaster, ADR 28),
 * so the one cast from the stored shape to the member lives here.
 */
export function reducersOf<E extends TypedEvent>(evolve: Evolve<E>): { [type: string]: Reducer } {
  return { ...(evolve as unknown as { [type: string]: Reducer }) };
}

/**
 * A reaction that switches over a union. Every event of the transaction reaches a
 * reaction, so `types` names those it reads: any other is answered with no events
 * before the switch sees it.
 */
export function reactionOf<E extends TypedEvent>(types: Iterable<string>, react: (world: World, event: E, env: Env) => EngineEvent[]): Reaction {
  const reads = new Set<string>(types);
  return (world, event, env) => (reads.has(event.type) ? react(world, event as unknown as E, env) : []);
}

/** A typed event as the engine stores it (its fields are JSON by construction). */
export function stored<E extends TypedEvent>(event: E): EngineEvent {
  return event as unknown as EngineEvent;
}
