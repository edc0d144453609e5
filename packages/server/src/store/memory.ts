// In-memory event store with the SQLite adapter's semantics (same port, same
// refusals), for unit tests. Records are deep-copied through JSON like a row.
import type { Transaction } from '@tablekeeper/engine';
import { StoreError, type JoinCodeRecord, type SyncEventStore, type TableRecord, type TokenRecord, type TxRecord } from './port.js';

const copy = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

export function memoryStore(): SyncEventStore {
  const tables = new Map<string, TableRecord>();
  const logs = new Map<string, TxRecord[]>();
  const snapshots = new Map<string, { version: number; state: string }>();
  const tokens = new Map<string, TokenRecord>();
  /** A seat's latest join code, by table and seat. */
  const codes = new Map<string, JoinCodeRecord>();
  const failures = new Map<string, number>();
  /** Versions by table and sender's command id, so an append's duplicate check is not a walk of the whole log. */
  const commandVersions = new Map<string, Map<string, number>>();
  const commandKey = (actorKey: string, commandId: string) => `${actorKey}\u0000${commandId}`;
  const index = (id: string, r: { version: number; commandId: string | null; actorKey: string }) => {
    if (r.commandId === null) return;
    let m = commandVersions.get(id);
    if (m === undefined) commandVersions.set(id, (m = new Map()));
    m.set(commandKey(r.actorKey, r.commandId), r.version);
  };
  /** The row holding this command id; an index entry a rolled-back batch left behind no longer matches its row. */
  const byCommand = (id: string, actorKey: string, commandId: string): TxRecord | undefined => {
    const v = commandVersions.get(id)?.get(commandKey(actorKey, commandId));
    const r = v === undefined ? undefined : logs.get(id)?.[v - 1];
    return r !== undefined && r.commandId === commandId && r.actorKey === actorKey ? r : undefined;
  };
  const seatKey = (tableId: string, seatId: string) => `${tableId}\u0000${seatId}`;
  let open = true;
  const live = () => {
    if (!open) throw new StoreError('NOT_FOUND', 'the store is closed');
  };
  const logOf = (id: string): TxRecord[] => {
    const l = logs.get(id);
    if (!l) throw new StoreError('NOT_FOUND', `no table ${id}`);
    return l;
  };
  /** As SQLite's write transaction: a batch that throws leaves the logs and snapshots as they were. */
  const inBatch = <T>(fn: () => T): T => {
    const lengths = new Map([...logs].map(([id, l]) => [id, l.length]));
    const snaps = new Map(snapshots);
    try {
      return fn();
    } catch (e) {
      for (const [id, n] of lengths) logs.get(id)?.splice(n);
      snapshots.clear();
      for (const [id, s] of snaps) snapshots.set(id, s);
      throw e;
    }
  };
  return {
    kind: 'memory',
    createTable(table, toks) {
      live();
      if (tables.has(table.tableId)) throw new StoreError('EXISTS', `table ${table.tableId} already exists`);
      tables.set(table.tableId, copy(table));
      logs.set(table.tableId, []);
      for (const t of toks) tokens.set(t.hash, { ...t });
    },
    importTable(table, log, toks) {
      live();
      if (tables.has(table.tableId)) throw new StoreError('EXISTS', `table ${table.tableId} already exists`);
      log.forEach((r, i) => {
        if (r.version !== i + 1) throw new StoreError('SCHEMA', `import log has a gap at version ${i + 1}`);
      });
      tables.set(table.tableId, copy(table));
      logs.set(table.tableId, copy([...log]));
      commandVersions.delete(table.tableId);
      for (const r of log) index(table.tableId, r);
      for (const t of toks) tokens.set(t.hash, { ...t });
    },
    importRows(id, rows) {
      live();
      const log = logOf(id);
      rows.forEach((r, i) => {
        if (r.version !== log.length + i + 1) throw new StoreError('SCHEMA', `import row ${r.version} does not follow version ${log.length + i}`);
      });
      for (const r of rows) {
        log.push({ version: r.version, commandId: r.commandId, actorKey: r.actorKey, transaction: JSON.parse(r.tx) as Transaction });
        index(id, r);
      }
    },
    dropTable(id) {
      live();
      tables.delete(id);
      logs.delete(id);
      commandVersions.delete(id);
      snapshots.delete(id);
      for (const [h, t] of tokens) if (t.tableId === id) tokens.delete(h);
      for (const [k, c] of codes) if (c.tableId === id) codes.delete(k);
    },
    getTable: (id) => (tables.has(id) ? copy(tables.get(id)!) : null),
    countTables: () => tables.size,
    listTableIds: () => [...tables.keys()],
    head: (id) => logs.get(id)?.length ?? 0,
    append(id, expected, record) {
      live();
      const log = logOf(id);
      if (record.commandId !== null) {
        const dup = byCommand(id, record.actorKey, record.commandId);
        if (dup) return { ok: false, reason: 'duplicate', existing: copy(dup) };
      }
      if (log.length !== expected) return { ok: false, reason: 'conflict', current: log.length };
      log.push(copy({ ...record, version: expected + 1 }));
      index(id, { version: expected + 1, commandId: record.commandId, actorKey: record.actorKey });
      return { ok: true, version: expected + 1 };
    },
    findCommand(id, actorKey, commandId) {
      const r = byCommand(id, actorKey, commandId);
      return r ? copy(r) : null;
    },
    readLog: (id, after = 0, limit = Infinity) => copy((logs.get(id) ?? []).filter((r) => r.version > after).slice(0, limit)),
    putSnapshot(id, version, state) {
      snapshots.set(id, { version, state });
    },
    latestSnapshot: (id) => snapshots.get(id) ?? null,
    addToken(t) {
      live();
      tokens.set(t.hash, { ...t });
    },
    findToken: (hash) => (tokens.has(hash) ? { ...tokens.get(hash)! } : null),
    revokeTokens(id, match, at) {
      live();
      if (match.role === 'player') for (const [k, c] of codes) if (c.tableId === id && (match.seatId === undefined || c.seatId === match.seatId)) codes.delete(k);
      const out: TokenRecord[] = [];
      for (const t of tokens.values()) {
        if (t.tableId === id && t.revokedAt === null && t.role === match.role && (match.seatId === undefined || t.seatId === match.seatId)) {
          const r = { ...t, revokedAt: at };
          tokens.set(t.hash, r);
          out.push(r);
        }
      }
      return out;
    },
    listTokens: (id) => [...tokens.values()].filter((t) => t.tableId === id).map((t) => ({ ...t })),
    putJoinCode(code) {
      live();
      const k = seatKey(code.tableId, code.seatId);
      for (const [other, c] of codes) if (c.hash === code.hash && other !== k) return false;
      codes.set(k, { ...code, usedAt: null });
      return true;
    },
    redeemJoinCode(hash, now, token) {
      live();
      const hit = [...codes.entries()].find(([, c]) => c.hash === hash && c.usedAt === null && c.expiresAt > now);
      if (hit === undefined) return null;
      const [k, c] = hit;
      codes.set(k, { ...c, usedAt: now });
      tokens.set(token.hash, { ...token, tableId: c.tableId, role: 'player', seatId: c.seatId });
      return { tableId: c.tableId, seatId: c.seatId };
    },
    listJoinCodes: (id) => [...codes.values()].filter((c) => c.tableId === id).map((c) => ({ ...c })),
    joinFailuresFullAt: (address) => failures.get(address) ?? null,
    chargeJoinFailure(address, now, stepMs, capMs) {
      live();
      for (const [a, at] of failures) if (at < now) failures.delete(a);
      const full = Math.min(Math.max(failures.get(address) ?? now, now) + stepMs, now + capMs);
      failures.set(address, full);
      return full;
    },
    batch: (fn) => inBatch(fn),
    commit: (fn) => ({ value: inBatch(fn), durable: Promise.resolve() }),
    probeWritable: () => open,
    probeWrite: () => (open ? null : new StoreError('NOT_FOUND', 'the store is closed')),
    close() {
      open = false;
    },
  };
}
