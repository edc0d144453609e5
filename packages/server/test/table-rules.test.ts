// Table rules over real HTTP and WebSocket against a SQLite file (ADR 99): a
// table created with a setting keeps it; the GM changes another with
// `table.setting` and every viewer (player, spectator) receives it and its log
// line; a player may not change one; a wrong value is refused in words; undo
// takes it back for everyone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registryCatalog } from '../src/index.js';
import { Client, http, testServer } from './helpers.js';

let srv: Awaited<ReturnType<typeof testServer>>;
beforeAll(async () => {
  srv = await testServer({ catalog: registryCatalog() });
});
afterAll(async () => {
  await srv.cleanup();
});

describe('table rules over the wire', () => {
  it('reach every viewer, are the GM’s to change, refuse a wrong value in words, and undo for everyone', async () => {
    const t = await http<{ tableId: string; gmToken: string }>(srv.url, 'POST', '/api/tables', { name: 'Rules', rulesetId: 'teams', settings: { 'teams.killingStrikeWeapons': 'lethal' } });
    expect(t.status).toBe(201);
    const seat = await http<{ seatId: string; token: string }>(srv.url, 'POST', `/api/tables/${t.body.tableId}/seats`, { name: 'Ann' }, t.body.gmToken);
    const spec = await http<{ token: string }>(srv.url, 'POST', `/api/tables/${t.body.tableId}/spectators`, undefined, t.body.gmToken);
    const gm = await Client.open(srv.url, t.body.gmToken);
    const player = await Client.open(srv.url, seat.body.token);
    const spectator = await Client.open(srv.url, spec.body.token);
    try {
      expect(player.view!.world.settings['teams.killingStrikeWeapons']).toBe('lethal');

      expect(await player.command({ type: 'table.setting', key: 'teams.killingStrikeWeapons', value: 'any' })).toMatchObject({ type: 'rejection', error: { kind: 'FORBIDDEN' } });
      const bad = await gm.command({ type: 'table.setting', key: 'teams.killingStrikeWeapons', value: 'blunt' });
      expect(bad).toMatchObject({ type: 'rejection', error: { path: 'value' } });
      expect(JSON.stringify(bad)).toContain('must be one of \\"any\\", \\"nonlethal\\", \\"lethal\\"');

      expect((await gm.command({ type: 'table.setting', key: 'teams.killingStrikeWeapons', value: 'any' })).type).toBe('ack');
      for (const c of [player, spectator]) {
        await c.reach(gm.version);
        expect(c.view!.world.settings['teams.killingStrikeWeapons']).toBe('any');
        expect(c.view!.world.log.at(-1)?.text).toBe('Table rule changed: any weapon, nonlethal ones included, may deliver a killing strike.');
      }

      expect((await gm.command({ type: 'history.undo' })).type).toBe('ack');
      for (const c of [player, spectator]) {
        await c.reach(gm.version);
        expect(c.view!.world.settings['teams.killingStrikeWeapons']).toBe('lethal');
      }
    } finally {
      await Promise.all([gm.close(), player.close(), spectator.close()]);
    }
  });
});
