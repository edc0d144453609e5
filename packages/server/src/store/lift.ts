// The embedded adapters on the asynchronous port (ADR 49). Each call runs the
// synchronous adapter at once and hands back a settled promise: no thread hop,
// no extra turn of the event loop, so the SQLite default keeps its speed. A
// throw becomes a rejection, as a networked store's failure would be.
import type { BatchWriter, EventStore, SyncEventStore } from './port.js';

const settle = <T>(run: () => T): Promise<T> => {
  try {
    return Promise.resolve(run());
  } catch (e) {
    return Promise.reject(e instanceof Error ? e : new Error(String(e)));
  }
};

export function asyncStore(sync: SyncEventStore): EventStore {
  const writer: BatchWriter = sync;
  return {
    kind: sync.kind,
    sync,
    createTable: (table, tokens) => settle(() => sync.createTable(table, tokens)),
    importTable: (table, log, tokens) => settle(() => sync.importTable(table, log, tokens)),
    importRows: (tableId, rows) => settle(() => sync.importRows(tableId, rows)),
    dropTable: (tableId) => settle(() => sync.dropTable(tableId)),
    getTable: (tableId) => settle(() => sync.getTable(tableId)),
    countTables: () => settle(() => sync.countTables()),
    listTableIds: () => settle(() => sync.listTableIds()),
    head: (tableId) => settle(() => sync.head(tableId)),
    append: (tableId, expected, record) => settle(() => sync.append(tableId, expected, record)),
    findCommand: (tableId, actorKey, commandId) => settle(() => sync.findCommand(tableId, actorKey, commandId)),
    readLog: (tableId, after, limit) => settle(() => sync.readLog(tableId, after, limit)),
    putSnapshot: (tableId, version, state) => settle(() => sync.putSnapshot(tableId, version, state)),
    latestSnapshot: (tableId) => settle(() => sync.latestSnapshot(tableId)),
    addToken: (token) => settle(() => sync.addToken(token)),
    findToken: (hash) => settle(() => sync.findToken(hash)),
    revokeTokens: (tableId, match, at) => settle(() => sync.revokeTokens(tableId, match, at)),
    listTokens: (tableId) => settle(() => sync.listTokens(tableId)),
    putJoinCode: (code) => settle(() => sync.putJoinCode(code)),
    redeemJoinCode: (hash, now, token) => settle(() => sync.redeemJoinCode(hash, now, token)),
    listJoinCodes: (tableId) => settle(() => sync.listJoinCodes(tableId)),
    joinFailuresFullAt: (address) => settle(() => sync.joinFailuresFullAt(address)),
    chargeJoinFailure: (address, now, stepMs, capMs) => settle(() => sync.chargeJoinFailure(address, now, stepMs, capMs)),
    // The embedded stores look command ids up inside the write transaction: `lookups` is not needed.
    commit: (_lookups, fn) => settle(() => sync.commit(() => fn(writer))),
    probeWrite: () => settle(() => sync.probeWrite()),
    async close() {
      sync.close();
      await sync.whenClosed?.();
    },
  };
}

/** The store on the port: an embedded adapter is lifted, a port store is used as it is. */
export function onPort(store: EventStore | SyncEventStore): EventStore {
  return 'sync' in store ? store : asyncStore(store);
}
