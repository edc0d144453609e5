// The harness a ruleset's event-renames test runs (ADR 28): a table its commands wrote under today's
// field names, stored again under the old ones, must replay, show and undo alike; and every event
// the commands write must carry today's names only. Returns what went wrong (empty when nothing did).
import { seededRng } from '../dice/rng.js';
import type { Engine, EngineEvent, Table, Transaction, Viewer } from '../core/types.js';
import { sameJsonValue } from './secrecy.js';

/** Today's field -> the old one, per event type. */
export type OldNames = { readonly [type: string]: { readonly [now: string]: string } };

/** The inverse of an upcaster's map of event fields (old -> today's). */
export const oldNamesOf = (eventFields: { readonly [type: string]: { readonly [old: string]: string } | undefined }): OldNames =>
  Object.fromEntries(Object.entries(eventFields).map(([type, renamed]) => [type, Object.fromEntries(Object.entries(renamed ?? {}).map(([old, now]) => [now, old]))]));

export interface Renames {
  readonly old: OldNames;
  /** A type as it was stored (a renamed namespace: `36th-way.` -> `tsw.`); default unchanged. */
  readonly oldType?: (type: string) => string;
  /** Records inside an event as they were stored (a nested record's renamed fields), applied after the field renames. */
  readonly oldRecords?: { readonly [type: string]: (e: EngineEvent) => EngineEvent };
}

/** An event as a writer before the rename stored it: old type, old field names. */
export function oldEvent(r: Renames, e: EngineEvent): EngineEvent {
  const back = r.old[e.type];
  const type = r.oldType?.(e.type) ?? e.type;
  const records = r.oldRecords?.[e.type];
  const fields = back === undefined ? (type === e.type ? e : { ...e, type }) : (Object.fromEntries(Object.entries(e).map(([k, v]) => (k === 'type' ? [k, type] : [back[k] ?? k, v]))) as unknown as EngineEvent);
  return records === undefined ? fields : records(fields);
}

/** A command transaction as it was stored before the rename (its command's type too). */
export function oldTransaction(r: Renames, tx: Transaction): Transaction {
  if (tx.kind !== 'command') return tx;
  const type = r.oldType?.(tx.command.type) ?? tx.command.type;
  return { ...tx, ...(type === tx.command.type ? {} : { command: { ...tx.command, type } }), events: tx.events.map((e) => oldEvent(r, e)) };
}

const differ = (what: string, a: unknown, b: unknown): string[] => (sameJsonValue(a, b) ? [] : [`${what}: stored under the old names ${JSON.stringify(a)?.slice(0, 400)}, under today's ${JSON.stringify(b)?.slice(0, 400)}`]);

/**
 * `now` replayed from its transactions as written and as stored under the old names: the same world
 * (and the one `now` holds), the same views and history for each viewer, only today's names in the
 * upcast log, and the same outcome for an undo.
 */
export function renamedReplayProblems(engine: Engine, now: Table, r: Renames, viewers: readonly Viewer[]): string[] {
  const txs = [...now.transactions];
  const a = engine.replay(now.genesis, txs);
  const b = engine.replay(now.genesis, txs.map((tx) => oldTransaction(r, tx)));
  const problems = [...differ('the replayed world', b.world, a.world), ...differ("today's replay against the table", a.world, now.world)];
  for (const v of viewers) problems.push(...differ(`${JSON.stringify(v)}'s world`, engine.view(b, v).world, engine.view(a, v).world), ...differ(`${JSON.stringify(v)}'s history`, engine.history(b, v), engine.history(a, v)));
  const oldTypes = new Set(txs.flatMap((t) => (t.kind === 'command' ? t.events : [])).map((e) => r.oldType?.(e.type) ?? e.type).filter((t) => r.old[t] === undefined && !engine.modules.some((m) => m.reducers?.[t] !== undefined)));
  const stale = [...b.transactions].flatMap((t) => (t.kind === 'command' ? t.events : [])).filter((e) => oldTypes.has(e.type) || (r.old[e.type] !== undefined && Object.values(r.old[e.type]!).some((k) => Object.hasOwn(e, k))));
  if (stale.length > 0) problems.push(`the upcast log still holds old names: ${JSON.stringify(stale.slice(0, 3))}`);
  if (a.live.top === null) return problems;
  const gm: Viewer = { role: 'gm' };
  const undoA = engine.execute(a, { type: 'history.undo' }, { rng: seededRng(1), actor: gm });
  const undoB = engine.execute(b, { type: 'history.undo' }, { rng: seededRng(1), actor: gm });
  if (undoA.ok !== undoB.ok) problems.push(`undo: ${undoA.ok ? 'accepted' : 'refused'} under today's names, ${undoB.ok ? 'accepted' : 'refused'} under the old`);
  else if (undoA.ok && undoB.ok) problems.push(...differ('the world after an undo', undoB.value.table.world, undoA.value.table.world));
  return problems;
}

/** Events of `table` that lack a today's name or still carry an old one; every renamed type met is added to `seen`. */
export function oldNameProblems(table: Table, r: Renames, seen: Set<string>): string[] {
  const problems: string[] = [];
  for (const tx of table.transactions) {
    if (tx.kind !== 'command') continue;
    for (const e of tx.events) {
      const back = r.old[e.type];
      if (back === undefined) continue;
      seen.add(e.type);
      for (const [now, was] of Object.entries(back)) {
        if (!Object.hasOwn(e, now)) problems.push(`${e.type} lacks ${now}`);
        if (Object.hasOwn(e, was)) problems.push(`${e.type} still writes ${was}`);
      }
    }
  }
  return problems;
}
