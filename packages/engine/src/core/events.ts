// Typed events (STYLE 2): a module declares its event union; its reducers and
// reactions receive the member a type names instead of reading untyped fields.
import type { Audience, EngineEvent, Env, EventAudience, Json, Reaction, Reducer, World } from './types.js';

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

/**
 * A stored event read as the member of `E` its type names, or undefined for any other
 * type (for code that looks through a transaction's events): the same cast as `reducersOf`.
 */
export function memberOf<E extends TypedEvent, T extends E['type']>(event: EngineEvent | undefined, type: T): EventOf<E, T> | undefined {
  return event !== undefined && event.type === type ? (event as unknown as EventOf<E, T>) : undefined;
}

/**
 * `T` when every part of it is JSON (optional fields allowed), else a type that
 * `T` cannot meet: a function, `undefined` as a value or `unknown` fails to compile.
 */
export type JsonShaped<T> = T extends string | number | boolean | null
  ? T
  : T extends readonly (infer U)[]
    ? readonly JsonShaped<U>[]
    : T extends (...args: never[]) => unknown
      ? never
      : T extends object
        ? { readonly [K in keyof T]: JsonShaped<T[K]> }
        : never;

/** A typed event as the engine stores it: its type is checked to be JSON, so the one cast to the stored shape lives here. */
export function stored<E extends TypedEvent>(event: E & JsonShaped<E>): EngineEvent {
  return event as unknown as EngineEvent;
}

/**
 * A typed record (a roll, a sheet, a module's state, a query's answer) as JSON.
 * Interfaces carry no index signature, so TypeScript cannot see they are JSON;
 * `JsonShaped` checks it field by field instead, and the cast lives here once.
 */
export function asJson<T>(value: T & JsonShaped<T>): Json {
  return value as unknown as Json;
}

/**
 * A record stored as JSON read back as its type: the module's own reducers wrote
 * it (from events checked by `stored`), so the cast back lives here once.
 */
export function fromJson<T>(value: Json): T {
  return value as unknown as T;
}

/** One audience hook per event type of the union, each receiving its own member (types left out: everyone). */
export type Audiences<E extends TypedEvent> = { readonly [T in E['type']]?: (world: World, event: EventOf<E, T>) => Audience };

/** A module's audience hooks from a typed map (the engine calls a hook only with events of its key's type). */
export function audiencesOf<E extends TypedEvent>(hooks: Audiences<E>): { [type: string]: EventAudience } {
  return { ...(hooks as unknown as { [type: string]: EventAudience }) };
}

/**
 * The same audience hook for every event type of a union: the keys of its `Evolve`, or
 * `types` listed (as `reactionOf` takes them), whose events must all be members of `E`.
 */
export function sameAudience<E extends TypedEvent>(types: Evolve<E> | Iterable<string>, hook: (world: World, event: E) => Audience): { [type: string]: EventAudience } {
  const names = Symbol.iterator in types ? [...(types as Iterable<string>)] : Object.keys(types);
  return Object.fromEntries(names.map((type) => [type, hook as unknown as EventAudience]));
}

/** One history view per event type of the union: its own member in, the event as a player may read it out. */
export type EventViews<E extends TypedEvent> = { readonly [T in E['type']]?: (world: World, event: EventOf<E, T>) => TypedEvent };

/** A module's event views from a typed map (what a view returns is the member with fields left out or redacted). */
export function eventViewsOf<E extends TypedEvent>(views: EventViews<E>): { [type: string]: (world: World, event: EngineEvent) => EngineEvent } {
  return { ...(views as unknown as { [type: string]: (world: World, event: EngineEvent) => EngineEvent }) };
}
