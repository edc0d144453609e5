// Spectators ask too (issue 17, ADR 39): a table display may ask the queries
// declared for everyone (each ruleset's status: round, escalation die, bands,
// phase, luck die, Fear...), answered on the spectator's own projection, over
// a real WebSocket against a real SQLite file. Every other query is refused
// before its arguments are read, with an error that names the query only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coreModule, declareQuery, defineQuery, getEncounter, type Json, type Module } from '@tablekeeper/engine';
import { rulesetIds } from '@tablekeeper/rulesets';
import { z } from 'zod';
import { registryCatalog } from '../src/index.js';
import { Client, http, setupTable, testCatalog, testServer } from './helpers.js';

const MARK = 'QZX';

type Answer = { ok: true; result: Json } | { ok: false; error: { code: string; message: string; path?: string } };
let asked = 0;
async function ask(c: Client, name: string, args: { readonly [k: string]: Json } = {}): Promise<Answer> {
  const queryId = `q${++asked}`;
  const answer = c.next((m) => m.type === 'queryResult' && m.queryId === queryId);
  c.sendRaw(JSON.stringify({ type: 'query', queryId, name, args }));
  return (await answer) as unknown as Answer;
}

// A GM-only query whose answer is GM-world text: the hidden characters' names.
const hiddenNames = declareQuery('test.hiddenNames', { summary: 'The names of hidden characters', who: 'gm', input: z.strictObject({ characterId: z.string().max(64).optional() }), result: z.array(z.string()) });
const gmOnly: Module = {
  id: 'test-gm-only',
  queries: { 'test.hiddenNames': defineQuery(hiddenNames, (world) => ({ ok: true, value: Object.values(world.characters).filter((c) => c.visibility === 'hidden').map((c) => c.name) })) },
  catalog: { 'test.hiddenNames': hiddenNames },
};

let full: Awaited<ReturnType<typeof testServer>>;
let small: Awaited<ReturnType<typeof testServer>>;
beforeAll(async () => {
  full = await testServer({ catalog: registryCatalog(), rateLimit: { capacity: 1e6, refillPerSecond: 1e6 } });
  small = await testServer({ catalog: testCatalog([coreModule, gmOnly]), rateLimit: { capacity: 1e6, refillPerSecond: 1e6 } });
});
afterAll(async () => {
  await full.cleanup();
  await small.cleanup();
});

describe('a spectator asks the status queries (ADR 39)', () => {
  it.each(rulesetIds)('%s: every query declared for everyone answers on the spectator’s own view; the rest are refused naming only the query', async (rulesetId) => {
    const t = await http<{ tableId: string; gmToken: string }>(full.url, 'POST', '/api/tables', { name: 'Display', rulesetId });
    expect(t.status).toBe(201);
    const seat = await http<{ seatId: string; token: string }>(full.url, 'POST', `/api/tables/${t.body.tableId}/seats`, { name: 'Ann' }, t.body.gmToken);
    const spec = await http<{ token: string }>(full.url, 'POST', `/api/tables/${t.body.tableId}/spectators`, undefined, t.body.gmToken);
    const gm = await Client.open(full.url, t.body.gmToken);
    const sp = await Client.open(full.url, spec.body.token);
    const run = async (command: { type: string; [k: string]: unknown }) => {
      const a = await gm.command(command);
      if (a.type !== 'ack') throw new Error(`${command.type}: ${JSON.stringify(a)}`);
    };
    await run({ type: 'character.add', name: 'Pip', kind: 'pc', seatId: seat.body.seatId, stats: { hp: 10, dex: 14 } });
    await run({ type: 'character.add', name: `${MARK} the Lurker`, kind: 'npc', visibility: 'hidden', stats: { hp: 9, dex: 12 } });
    const ids = Object.keys(gm.view!.world.characters);
    const pip = ids.find((id) => gm.view!.world.characters[id]!.name === 'Pip')!;
    const lurker = ids.find((id) => id !== pip)!;
    // A fight where the ruleset runs one from the tracker; the lurker stays hidden in it.
    // The 36th Way seats combatants in initiative bands.
    const band = rulesetId === '36th-way' ? { band: 'fast' } : {};
    const started = await gm.command({ type: 'encounter.start', combatants: [{ id: pip, kind: 'pc', characterId: pip, stats: { dex: 14 }, ...band }, { id: lurker, kind: 'npc', characterId: lurker, visibility: 'hidden', name: `${MARK} 2`, stats: { dex: 12 }, ...band }] });
    const room = full.room(t.body.tableId)!;
    await sp.reach(room.version);

    const engine = full.catalog.engineFor(rulesetId)!;
    const forEveryone = engine.catalog.filter((d) => d.kind === 'query' && d.who === 'everyone').map((d) => d.type);
    expect(forEveryone).toContain(`${rulesetId}.status`);
    for (const name of forEveryone) {
      const answer = await ask(sp, name);
      expect(answer.ok, `${name}: ${JSON.stringify(answer)}`).toBe(true);
      // The spectator's own projection, never the GM's: what the engine answers a spectator now.
      const own = engine.query(room.table, { role: 'spectator' }, name, {});
      expect(own.ok).toBe(true);
      if (answer.ok && own.ok) expect(answer.result).toEqual(own.value);
      const text = JSON.stringify(answer);
      expect(text).not.toContain(MARK);
      expect(text).not.toContain(lurker);
    }
    // Where the GM's answer names the hidden lurker (the 36th Way's bands), the spectator's does not.
    const gmStatus = await ask(gm, `${rulesetId}.status`);
    expect(gmStatus.ok).toBe(true);
    if (rulesetId === '36th-way') {
      expect(started.type).toBe('ack');
      expect(getEncounter(room.table.world).active).toBe(true);
      expect(JSON.stringify(gmStatus)).toContain(lurker);
    }

    // Every other query is for seated players or the GM: refused before its arguments are read.
    const others = engine.catalog.filter((d) => d.kind === 'query' && d.who !== 'everyone').map((d) => d.type);
    expect(others.length).toBeGreaterThan(0);
    for (const name of others) {
      const answer = await ask(sp, name, { characterId: lurker, targetId: lurker });
      expect(answer.ok, name).toBe(false);
      if (!answer.ok) {
        expect(answer.error.code, name).toBe('FORBIDDEN');
        expect(answer.error.message).toContain(name);
        expect(answer.error.message).toContain('status');
        expect(JSON.stringify(answer)).not.toContain(MARK);
        expect(JSON.stringify(answer)).not.toContain(lurker);
      }
    }
    await Promise.all([gm, sp].map((c) => c.close()));
  });

  it('a GM-only query is refused to a spectator and a player with an error that echoes no GM-world text; the GM gets the answer', async () => {
    const t = await setupTable(small.url, 1);
    const gm = await Client.open(small.url, t.gm);
    const p1 = await Client.open(small.url, t.seats[0]!.token);
    const sp = await Client.open(small.url, t.spectator);
    const added = await gm.command({ type: 'character.add', name: `${MARK} the Lurker`, kind: 'npc', visibility: 'hidden' });
    expect(added.type).toBe('ack');
    const lurker = Object.keys(gm.view!.world.characters)[0]!;
    const forGm = await ask(gm, 'test.hiddenNames', {});
    expect(forGm).toMatchObject({ ok: true, result: [`${MARK} the Lurker`] });
    for (const c of [sp, p1]) {
      const answer = await ask(c, 'test.hiddenNames', { characterId: lurker });
      expect(answer).toMatchObject({ ok: false, error: { code: 'FORBIDDEN', message: 'only the GM may ask test.hiddenNames' } });
      expect(JSON.stringify(answer)).not.toContain(MARK);
      expect(JSON.stringify(answer)).not.toContain(lurker);
    }
    await Promise.all([gm, p1, sp].map((c) => c.close()));
  });
});
