// The upcaster (ADR 28): stored commands and events written before a rename
// are read under today's names, so old tables load, replay, import and undo
// to the same world, and old clients' command types still run.
// Renames are declared by the module that owns the names (`Module.upcasts`);
// command fields keep being renamed by their declarations (`renamed`, ADR 21).
import type { Renamed } from './catalog.js';
import type { Command, EngineEvent, Json, Module, Transaction, World } from './types.js';

/** How a module's stored names changed. */
export interface Upcasts {
  /** Old type prefix -> new, for commands, queries and events alike: `{ 'tsw.': '36th-way.' }`. */
  readonly namespaces?: { readonly [oldPrefix: string]: string };
  /** Old field -> new field of an event, keyed by the event's type under its new name. */
  readonly eventFields?: { readonly [type: string]: Renamed };
  /**
   * Renames inside the records an event carries (a list of heals, a nested record), keyed by
   * the event's type under its new name: run after the field renames, returning the same
   * object when the event is already under today's names.
   */
  readonly eventRecords?: { readonly [type: string]: (event: EngineEvent) => EngineEvent };
}

/** A module with renames declared (rulesets keep them beside their declarations). */
export function withUpcasts<M extends { readonly upcasts?: Upcasts }>(module: M, upcasts: Upcasts): M {
  const prev = module.upcasts ?? {};
  return {
    ...module,
    upcasts: {
      namespaces: { ...(prev.namespaces ?? {}), ...(upcasts.namespaces ?? {}) },
      eventFields: { ...(prev.eventFields ?? {}), ...(upcasts.eventFields ?? {}) },
      eventRecords: { ...(prev.eventRecords ?? {}), ...(upcasts.eventRecords ?? {}) },
    },
  };
}

export interface Upcaster {
  /** False when no module renamed anything: every method is then the identity. */
  readonly active: boolean;
  /** Today's name of a command, query or event type. */
  type(type: string): string;
  /** The event under today's type and field names (the same object when nothing changed). */
  event(event: EngineEvent): EngineEvent;
  /** The command under today's type; its fields stay as sent (its declaration's `renamed` reads old names whenever it is parsed). */
  command(command: Command): Command;
  /** A stored transaction with its command and events upcast (the same object when nothing changed). */
  transaction(tx: Transaction): Transaction;
  /**
   * A stored world (a table's genesis, a snapshot's world) with its settings' keys
   * under today's namespaces: settings are keyed by the namespace too (the same
   * object when nothing changed).
   */
  world(world: World): World;
}

/** Keys of renamed fields are ordinary own keys: rebuilt with fromEntries so `__proto__` stays a key. */
function renameFields<T extends { readonly [k: string]: Json | undefined }>(value: T, renamed: Renamed | undefined): T {
  if (renamed === undefined) return value;
  let hit = false;
  for (const from of Object.keys(renamed)) if (Object.hasOwn(value, from)) hit = true;
  if (!hit) return value;
  // A field already under its new name wins (a writer that sent both): the old one is dropped, never merged.
  return Object.fromEntries(Object.entries(value).flatMap(([k, v]) => (Object.hasOwn(renamed, k) ? (Object.hasOwn(value, renamed[k]!) ? [] : [[renamed[k]!, v]]) : [[k, v]]))) as T;
}

export function createUpcaster(modules: readonly Module[]): Upcaster {
  const namespaces = new Map<string, string>();
  const eventFields = new Map<string, Renamed>();
  const eventRecords = new Map<string, (event: EngineEvent) => EngineEvent>();
  for (const m of modules) {
    for (const [from, to] of Object.entries(m.upcasts?.namespaces ?? {})) {
      if (!from.endsWith('.') || !to.endsWith('.')) throw new Error(`${m.id}: namespace renames map prefixes ending in a dot ("${from}" -> "${to}")`);
      if (namespaces.has(from) && namespaces.get(from) !== to) throw new Error(`${m.id}: "${from}" is renamed twice`);
      namespaces.set(from, to);
    }
    for (const [type, renamed] of Object.entries(m.upcasts?.eventFields ?? {})) eventFields.set(type, { ...(eventFields.get(type) ?? {}), ...renamed });
    for (const [type, read] of Object.entries(m.upcasts?.eventRecords ?? {})) {
      if (eventRecords.has(type)) throw new Error(`${m.id}: the records of ${type} are upcast twice`);
      eventRecords.set(type, read);
    }
  }
  const active = namespaces.size > 0 || eventFields.size > 0 || eventRecords.size > 0;

  function type(t: string): string {
    if (namespaces.size === 0) return t;
    const dot = t.indexOf('.');
    const to = dot < 0 ? undefined : namespaces.get(t.slice(0, dot + 1));
    return to === undefined ? t : to + t.slice(dot + 1);
  }

  function event(e: EngineEvent): EngineEvent {
    if (!active) return e;
    const t = type(e.type);
    const renamed = eventFields.get(t);
    const records = eventRecords.get(t);
    if (t === e.type && renamed === undefined && records === undefined) return e;
    const fields = renameFields(e, renamed);
    const named = t === e.type ? fields : { ...fields, type: t };
    return records === undefined ? named : records(named);
  }

  function command(c: Command): Command {
    const t = type(c.type);
    return t === c.type ? c : { ...c, type: t };
  }

  function transaction(tx: Transaction): Transaction {
    if (!active || tx.kind !== 'command') return tx;
    const c = command(tx.command);
    // Read on every history walk and undo label: no new events array until an event is renamed.
    let events: EngineEvent[] | null = null;
    for (let i = 0; i < tx.events.length; i++) {
      const e = tx.events[i]!;
      const u = event(e);
      if (u !== e && events === null) events = tx.events.slice(0, i);
      if (events !== null) events.push(u);
    }
    return c === tx.command && events === null ? tx : { ...tx, command: c, events: events ?? tx.events };
  }

  function world(w: World): World {
    // A snapshot is a cache read as untrusted JSON: a world without settings is left to its caller to refuse.
    if (namespaces.size === 0 || w.settings === null || typeof w.settings !== 'object') return w;
    const keys = Object.keys(w.settings);
    if (!keys.some((k) => type(k) !== k)) return w;
    // A key already under its new name wins over its old one (as for event fields).
    const settings = Object.fromEntries(keys.flatMap((k) => (type(k) === k ? [[k, w.settings[k]!]] : Object.hasOwn(w.settings, type(k)) ? [] : [[type(k), w.settings[k]!]])));
    return { ...w, settings };
  }

  return { active, type, event, command, transaction, world };
}
