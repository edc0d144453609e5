// The table's own conditions over real HTTP and WebSocket against a SQLite
// file (issue 20, ADR 71): the GM saves one, a player's socket receives it,
// a player may not save one, and a restart on the same file keeps the list.
import { describe, expect, it } from 'vitest';
import { coreModule, customConditionsModule, savedConditions, type World } from '@tablekeeper/engine';
import { startServer } from '../src/index.js';
import { Client, setupTable, silent, testCatalog, testServer } from './helpers.js';

const catalog = () => testCatalog([coreModule, customConditionsModule]);
const names = (c: Client) => savedConditions(c.view!.world as unknown as World).map((s) => s.name);

describe("the table's own conditions over the wire", () => {
  it('reach every seat, are the GM’s to save, and survive a restart', async () => {
    const s = await testServer({ catalog: catalog() });
    const t = await setupTable(s.url, 1);
    const gm = await Client.open(s.url, t.gm);
    const player = await Client.open(s.url, t.seats[0]!.token);
    const saved = await gm.command({ type: 'customCondition.save', name: 'Marked by the Duke', description: 'The hounds find you.', duration: { kind: 'rounds', rounds: 3 } });
    expect(saved.type).toBe('ack');
    await player.reach(gm.version);
    expect(names(player)).toEqual(['Marked by the Duke']);
    expect(await player.command({ type: 'customCondition.save', name: 'Soaked', duration: { kind: 'indefinite' } })).toMatchObject({ type: 'rejection', error: { kind: 'FORBIDDEN', message: 'only the GM may save a condition for this table' } });
    expect(await gm.command({ type: 'customCondition.save', name: 'x', duration: { kind: 'rounds', rounds: 0 } })).toMatchObject({ type: 'rejection', error: { path: 'duration.rounds' } });
    await Promise.all([gm.close(), player.close()]);
    const path = s.dbPath!;
    await s.close();
    const s2 = await startServer({ port: 0, host: '127.0.0.1', dbPath: path, logger: silent(), catalog: catalog(), webDist: null });
    try {
      const again = await Client.open(s2.url, t.seats[0]!.token);
      expect(names(again)).toEqual(['Marked by the Duke']);
      expect(savedConditions(again.view!.world as unknown as World)[0]).toMatchObject({ description: 'The hounds find you.', duration: { kind: 'rounds', rounds: 3 } });
      await again.close();
    } finally {
      await s2.close();
      s.cleanup().catch(() => {});
    }
  });
});
