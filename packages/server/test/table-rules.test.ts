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

  it('a Kleptonomicon table made with its sixth distance and default movement styles keeps them, plays by them, and a wrong one is refused naming the field (ADR 118)', async () => {
    const settings = { 'kleptonomicon.sixthDistance': { id: 'far-sight', name: 'Far Sight', units: 40 }, 'kleptonomicon.defaultMovementStyles': [{ style: 'fly', variant: 'double' }, { style: 'walk', variant: 'normal' }] };
    const bad = await http<{ error: { kind: string; path: string[]; message: string } }>(srv.url, 'POST', '/api/tables', { name: 'Heist', rulesetId: 'kleptonomicon', settings: { ...settings, 'kleptonomicon.sixthDistance': { id: 'far-sight', name: 'Far Sight', units: 12 } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toEqual({
      kind: 'INVALID',
      path: ['settings', 'kleptonomicon', 'sixthDistance', 'units'],
      message: 'the table rule "Sixth distance" (kleptonomicon.sixthDistance): its units must be a whole number from 17 to 1000 (past the Shooting Distance\'s 16u), or no limit; 12 is not',
    });
    const twice = await http<{ error: { path: string[]; message: string } }>(srv.url, 'POST', '/api/tables', { name: 'Heist', rulesetId: 'kleptonomicon', settings: { 'kleptonomicon.defaultMovementStyles': [{ style: 'walk', variant: 'normal' }, { style: 'walk', variant: 'half' }] } });
    expect(twice.status).toBe(400);
    expect(twice.body.error).toMatchObject({ path: ['settings', 'kleptonomicon', 'defaultMovementStyles', '1', 'style'], message: expect.stringContaining('movement style 2 repeats "walk" (each style once)') as unknown as string });

    const t = await http<{ tableId: string; gmToken: string }>(srv.url, 'POST', '/api/tables', { name: 'Heist', rulesetId: 'kleptonomicon', settings });
    expect(t.status).toBe(201);
    const gm = await Client.open(srv.url, t.body.gmToken);
    try {
      expect(gm.view!.world.settings['kleptonomicon.sixthDistance']).toEqual(settings['kleptonomicon.sixthDistance']);
      expect(gm.view!.world.settings['kleptonomicon.defaultMovementStyles']).toEqual(settings['kleptonomicon.defaultMovementStyles']);
      // Kira lists no styles of her own: her turn starts with the table's (Double Fly sets an 8u pool); Athletics +30 passes the second Dash.
      expect((await gm.command({ type: 'character.add', name: 'Kira', kind: 'pc', stats: { edgeSave: 5, athletics: 30 } })).type).toBe('ack');
      const kira = Object.values(gm.view!.world.characters).find((c) => c.name === 'Kira')!.id;
      for (const c of [{ type: 'kleptonomicon.startEpisode' }, { type: 'kleptonomicon.freeplay' }, { type: 'encounter.start', combatants: [{ id: 'kira', name: 'Kira', kind: 'pc', characterId: kira }] }]) expect((await gm.command(c)).type).toBe('ack');
      const moveOf = async (): Promise<string> => {
        const answer = gm.next((m) => m.type === 'queryResult' && m.queryId === 'moves');
        gm.sendRaw(JSON.stringify({ type: 'query', queryId: 'moves', name: 'kleptonomicon.actions', args: { combatantId: 'kira' } }));
        const r = (await answer) as unknown as { result: { actions: { id: string; cost: string }[] } };
        return r.result.actions.find((a) => a.id === 'move')!.cost;
      };
      expect(await moveOf()).toBe('free (movement: 8u left this turn)');
      for (let i = 0; i < 2; i++) expect((await gm.command({ type: 'kleptonomicon.dash', characterId: kira })).type).toBe('ack');
      expect((await gm.command({ type: 'kleptonomicon.move', characterId: kira, style: 'fly', units: 20 })).type).toBe('ack');
      expect(gm.view!.world.log.at(-1)?.text).toBe('Kira moves 20u by fly (Far Sight).');
      // Still creation-only afterwards, in words.
      const later = await gm.command({ type: 'table.setting', key: 'kleptonomicon.sixthDistance', value: null });
      expect(JSON.stringify(later)).toContain('is set only when the table is created');
    } finally {
      await gm.close();
    }
  });
});
