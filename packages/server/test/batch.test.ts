// history.batch over real WebSocket against a real SQLite file (ADR 70): one
// click's commands are one acked version, one undo takes them all back, a
// refused part leaves the table as it was, and a restart loads the same view.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from '../src/index.js';
import { Client, setupTable, silent, tempDir, testCatalog, UNLIMITED_HTTP } from './helpers.js';

describe('history.batch', () => {
  it('is one version and one undo step, all or none, and survives a restart', { timeout: 60_000 }, async () => {
    const t = tempDir();
    const dbPath = join(t.dir, 'batch.sqlite');
    const options = { port: 0, host: '127.0.0.1', dbPath, logger: silent(), catalog: testCatalog(), webDist: null, httpRateLimit: UNLIMITED_HTTP, createAllowance: UNLIMITED_HTTP };
    let s = await startServer(options);
    try {
      const table = await setupTable(s.url, 0);
      const gm = await Client.open(s.url, table.gm);
      const v0 = gm.version;
      const ack = await gm.command({ type: 'history.batch', commands: [{ type: 'seat.add', name: 'Ann' }, { type: 'seat.add', name: 'Bob' }, { type: 'log.note', text: 'two seats' }] });
      expect(ack).toMatchObject({ type: 'ack', version: v0 + 1 });
      await gm.reach(v0 + 1);
      expect(Object.values(gm.view!.world.seats).map((x) => x.name).sort()).toEqual(['Ann', 'Bob']);
      expect(gm.view!.undoLabel).toBe('add a seat');

      // A refused part refuses the whole: no version, nothing changed.
      const refused = await gm.command({ type: 'history.batch', commands: [{ type: 'seat.add', name: 'Cy' }, { type: 'seat.rename', seatId: 'nobody', name: 'X' }] });
      expect(refused).toMatchObject({ type: 'rejection' });
      expect(Object.keys(gm.view!.world.seats)).toHaveLength(2);

      // One undo takes both seats and the note back; redo brings them again.
      expect(await gm.command({ type: 'history.undo' })).toMatchObject({ type: 'ack', version: v0 + 2 });
      await gm.reach(v0 + 2);
      expect(gm.view!.world.seats).toEqual({});
      expect(await gm.command({ type: 'history.redo' })).toMatchObject({ type: 'ack', version: v0 + 3 });
      await gm.reach(v0 + 3);
      const before = gm.view;
      await gm.close();

      await s.close();
      s = await startServer(options);
      const again = await Client.open(s.url, table.gm);
      expect(again.version).toBe(v0 + 3);
      expect(again.view).toEqual(before);
      await again.close();
    } finally {
      await s.close();
      t.cleanup();
    }
  });
});
