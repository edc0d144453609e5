// Authorization matrix: every command type of every module, from every role,
// over real WebSockets. The server takes the actor from the token (never from
// the message), spectators never command, players never run GM commands, and
// undo/redo are permission-checked transactions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coreModule, countdownsModule, type Command, type CommandHandler, type Viewer } from '@tablekeeper/engine';
import type { RejectionError } from '@tablekeeper/protocol';
import { rulesetIds } from '@tablekeeper/rulesets';
import { registryCatalog } from '../src/index.js';
import { Client, http, setupTable, testCatalog, testServer, TEST_RULESET } from './helpers.js';

let srv: Awaited<ReturnType<typeof testServer>>;
let full: Awaited<ReturnType<typeof testServer>>;
beforeAll(async () => {
  srv = await testServer({ catalog: testCatalog([coreModule, countdownsModule]), rateLimit: { capacity: 1e6, refillPerSecond: 1e6 } });
  full = await testServer({ catalog: registryCatalog(), rateLimit: { capacity: 1e6, refillPerSecond: 1e6 } });
});
afterAll(async () => {
  await srv.cleanup();
  await full.cleanup();
});

type Answer = { type: 'ack' } | { type: 'rejection'; error: RejectionError };
const forbidden = (a: Answer) => a.type === 'rejection' && (a.error.kind === 'FORBIDDEN' || (a.error.kind === 'RULE_ERROR' && a.error.code === 'FORBIDDEN'));

describe('authorization matrix', () => {
  it('covers every command type from GM, player and spectator', async () => {
    const t = await setupTable(srv.url, 2);
    const [s1] = t.seats as [{ seatId: string; token: string }];
    const gm = await Client.open(srv.url, t.gm);
    const p1 = await Client.open(srv.url, s1.token);
    const sp = await Client.open(srv.url, t.spectator);
    await gm.command({ type: 'character.add', name: 'Pip', kind: 'pc', seatId: s1.seatId });
    const engine = srv.catalog.engineFor(TEST_RULESET)!;
    const handlers = new Map<string, CommandHandler>();
    for (const m of engine.modules) for (const [type, h] of Object.entries(m.commands ?? {})) handlers.set(type, h);
    expect(handlers.size).toBeGreaterThan(10);
    const room = srv.room(t.tableId)!;
    const player: Viewer = { role: 'player', seatId: s1.seatId };
    let checked = 0;
    for (const [type, handler] of handlers) {
      // A payload that would be valid for many commands; validity is not the point, permission is.
      const command: Command = { type, id: 'ch1', name: 'x', text: 'x', unit: 'round', start: 3 };
      const spAnswer = (await sp.command(command)) as Answer;
      expect(spAnswer.type === 'rejection' && spAnswer.error.kind, `${type} from a spectator`).toBe('FORBIDDEN');
      // What the engine's own rule says for this player, given the world right now.
      const verdict = handler.authorize ? handler.authorize(room.table.world, command, player) : { code: 'FORBIDDEN', message: '' };
      const pAnswer = (await p1.command(command)) as Answer;
      if (verdict === null) expect(forbidden(pAnswer), `${type} from its player: the engine allows it`).toBe(false);
      else expect(forbidden(pAnswer), `${type} from a player: the engine forbids it`).toBe(true);
      const gmAnswer = (await gm.command(command)) as Answer;
      expect(forbidden(gmAnswer), `${type} from the GM`).toBe(false);
      checked++;
      await Promise.all([gm, p1, sp].map((c) => c.reach(room.version)));
    }
    expect(checked).toBe(handlers.size);
    // core: only log.note (to everyone or their own seat) and dice.roll are open to players
    const open = [...handlers].filter(([, h]) => h.authorize).map(([k]) => k);
    expect(open).toContain('log.note');
    expect(open).toContain('dice.roll');
    for (const type of ['table.rename', 'seat.add', 'seat.remove', 'character.add', 'character.update', 'character.remove', 'clock.advance', 'countdown.create', 'countdown.tick']) {
      expect(open, type).not.toContain(type);
    }
    await Promise.all([gm.close(), p1.close(), sp.close()]);
  });

  it.each(rulesetIds)('covers every command of ruleset %s from GM, player and spectator', async (rulesetId) => {
    const made = await http<{ tableId: string; gmToken: string }>(full.url, 'POST', '/api/tables', { name: 'Matrix', rulesetId });
    expect(made.status).toBe(201);
    const seat = await http<{ seatId: string; token: string }>(full.url, 'POST', `/api/tables/${made.body.tableId}/seats`, { name: 'P' }, made.body.gmToken);
    const spec = await http<{ token: string }>(full.url, 'POST', `/api/tables/${made.body.tableId}/spectators`, undefined, made.body.gmToken);
    const gm = await Client.open(full.url, made.body.gmToken);
    const p1 = await Client.open(full.url, seat.body.token);
    const sp = await Client.open(full.url, spec.body.token);
    await gm.command({ type: 'character.add', name: 'Pip', kind: 'pc', seatId: seat.body.seatId });
    const room = full.room(made.body.tableId)!;
    const player: Viewer = { role: 'player', seatId: seat.body.seatId };
    const handlers = new Map<string, CommandHandler>();
    for (const m of room.engine.modules) for (const [type, h] of Object.entries(m.commands ?? {})) handlers.set(type, h);
    for (const [type, handler] of handlers) {
      await Promise.all([gm, p1, sp].map((c) => c.reach(room.version)));
      const command: Command = { type, id: 'ch1', characterId: 'ch1', combatant: 'ch1', name: 'x', text: 'x' };
      const spAnswer = (await sp.command(command)) as Answer;
      expect(spAnswer.type === 'rejection' && spAnswer.error.kind, `${type} from a spectator`).toBe('FORBIDDEN');
      const verdict = handler.authorize ? handler.authorize(room.table.world, command, player) : { code: 'FORBIDDEN', message: '' };
      const pAnswer = (await p1.command(command)) as Answer;
      expect(forbidden(pAnswer), `${type} from a player (engine says ${verdict === null ? 'allowed' : 'forbidden'})`).toBe(verdict !== null);
    }
    await Promise.all([gm.close(), p1.close(), sp.close()]);
  });

  it('records the actor from the token, not from the message', async () => {
    const t = await setupTable(srv.url, 1);
    const p1 = await Client.open(srv.url, t.seats[0]!.token);
    // A command cannot carry its actor: strict payloads refuse the stray fields by name (ADR 13).
    const forged = await p1.command({ type: 'log.note', text: 'hi', actor: { role: 'gm' }, by: 'gm' });
    expect(forged.type === 'rejection' && forged.error.kind === 'RULE_ERROR' && [forged.error.code, forged.error.path]).toEqual(['INVALID_VALUE', 'actor']);
    const a = await p1.command({ type: 'log.note', text: 'hi' });
    expect(a.type).toBe('ack');
    const row = srv.store.sync!.readLog(t.tableId).at(-1)!;
    expect(row.transaction.actor).toEqual({ role: 'player', seatId: t.seats[0]!.seatId });
    expect(row.actorKey).toBe(`player:${t.seats[0]!.seatId}`);
    // a GM-only audience is refused to a player
    const whisper = await p1.command({ type: 'log.note', text: 'psst', audience: { kind: 'gm' } });
    expect(whisper.type === 'rejection' && whisper.error.kind).toBe('FORBIDDEN');
    await p1.close();
  });

  it('checks undo and redo: own actions for players, anything for the GM, nothing for spectators', async () => {
    const t = await setupTable(srv.url, 2);
    const [s1, s2] = t.seats as [{ seatId: string; token: string }, { seatId: string; token: string }];
    const gm = await Client.open(srv.url, t.gm);
    const p1 = await Client.open(srv.url, s1.token);
    const p2 = await Client.open(srv.url, s2.token);
    const sp = await Client.open(srv.url, t.spectator);
    const room = srv.room(t.tableId)!;
    const sync = () => Promise.all([gm, p1, p2, sp].map((c) => c.reach(room.version)));
    const kind = (a: Answer) => (a.type === 'ack' ? 'ack' : a.error.kind === 'RULE_ERROR' ? a.error.code : a.error.kind);

    await gm.command({ type: 'clock.advance', unit: 'round' });
    await sync();
    expect(kind((await p1.command({ type: 'history.undo' })) as Answer)).toBe('FORBIDDEN'); // the GM's action
    expect(kind((await sp.command({ type: 'history.undo' })) as Answer)).toBe('FORBIDDEN');
    await p1.command({ type: 'log.note', text: 'mine' });
    await sync();
    expect(kind((await p2.command({ type: 'history.undo' })) as Answer)).toBe('FORBIDDEN'); // someone else's
    expect(p1.view?.canUndo).toBe(true);
    expect(p2.view?.canUndo).toBe(false);
    expect(kind((await p1.command({ type: 'history.undo' })) as Answer)).toBe('ack');
    await sync();
    expect(kind((await p2.command({ type: 'history.redo' })) as Answer)).toBe('FORBIDDEN');
    expect(kind((await p1.command({ type: 'history.redo' })) as Answer)).toBe('ack');
    await sync();
    expect(kind((await gm.command({ type: 'history.undo' })) as Answer)).toBe('ack'); // the GM may undo anyone's
    await sync();
    expect(kind((await gm.command({ type: 'history.undo' })) as Answer)).toBe('ack');
    await sync();
    await Promise.all([gm, p1, p2, sp].map((c) => c.close()));
  });
});
