// Default-deny over the wire (issue 15, ADR 10): an OSR table on the real
// ruleset registry, a real SQLite file and real WebSockets. A hidden NPC's
// name, its corruption (name and stage notes), body part and torch label are
// canaries; no frame a player or spectator socket receives may hold one:
// snapshots, deltas, a reconnect, a resync, undo and redo, encounter removal
// and the refusal of a player's attack on the hidden NPC (which must answer as
// for an id that does not exist).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registryCatalog } from '../src/index.js';
import { Client, http, testServer } from './helpers.js';

const MARK = 'QZX';
let srv: Awaited<ReturnType<typeof testServer>>;
beforeAll(async () => {
  srv = await testServer({ catalog: registryCatalog() });
});
afterAll(async () => {
  await srv.cleanup();
});

describe('no canary reaches a player or spectator socket (ADR 10)', () => {
  it('OSR: hidden character, corruption, body part, light source, encounter, undo/redo, reconnect, resync, refusals', async () => {
    const t = await http<{ tableId: string; gmToken: string }>(srv.url, 'POST', '/api/tables', { name: 'Secrets', rulesetId: 'osr' });
    expect(t.status).toBe(201);
    const seat = await http<{ seatId: string; token: string }>(srv.url, 'POST', `/api/tables/${t.body.tableId}/seats`, { name: 'Ann' }, t.body.gmToken);
    const spec = await http<{ token: string }>(srv.url, 'POST', `/api/tables/${t.body.tableId}/spectators`, undefined, t.body.gmToken);
    const gm = await Client.open(srv.url, t.body.gmToken);
    const p1 = await Client.open(srv.url, seat.body.token);
    const sp = await Client.open(srv.url, spec.body.token);
    const clients = [p1, sp];
    const run = async (command: { type: string; [k: string]: unknown }) => {
      const a = await gm.command(command);
      if (a.type !== 'ack') throw new Error(`${command.type}: ${JSON.stringify(a)}`);
      return a;
    };
    await run({ type: 'character.add', name: 'Pip', kind: 'pc', seatId: seat.body.seatId, stats: { hp: 10, dex: 14, str: 12 } });
    await run({ type: 'character.add', name: `${MARK}1 the Lurker`, kind: 'npc', visibility: 'hidden', stats: { hp: 9, dex: 12, note: `${MARK}2` } });
    const ids = Object.keys(gm.view!.world.characters);
    const pip = ids.find((id) => gm.view!.world.characters[id]!.name === 'Pip')!;
    const lurker = ids.find((id) => id !== pip)!;
    await run({ type: 'osr.expose', character: lurker, name: `${MARK}3 rot`, dc: 40, stages: [{ hours: 1, note: `${MARK}4`, exhaustion: false }, { hours: 1, note: `${MARK}5`, exhaustion: true }] });
    await run({ type: 'osr.noteBodyPart', character: lurker, part: `${MARK}6 ear` });
    await run({ type: 'osr.lightSource', owner: lurker, label: `${MARK}7 torch`, kind: 'torch' });
    await run({ type: 'clock.advance', unit: 'time', seconds: 7200 });
    await run({ type: 'encounter.start', combatants: [{ id: pip, kind: 'pc', characterId: pip, stats: { dex: 14 } }, { id: lurker, kind: 'npc', characterId: lurker, visibility: 'hidden', name: `${MARK}8`, stats: { dex: 12 } }] });

    // A player's attack on the hidden NPC: refused exactly as one on an id that never existed.
    const missing = lurker.slice(0, 3) + 'q'.repeat(lurker.length - 3);
    await p1.reach(gm.version);
    const onHidden = await p1.command({ type: 'osr.attack', attacker: pip, target: lurker });
    const onMissing = await p1.command({ type: 'osr.attack', attacker: pip, target: missing });
    expect(onHidden.type).toBe('rejection');
    expect(JSON.stringify(onHidden).split(lurker).join('<id>').replace(/"commandId":"[^"]*"/, '')).toBe(JSON.stringify(onMissing).split(missing).join('<id>').replace(/"commandId":"[^"]*"/, ''));

    await run({ type: 'encounter.remove', id: lurker });
    await run({ type: 'history.undo' });
    await run({ type: 'history.redo' });
    // A reconnect and a resync from scratch.
    await p1.close();
    const again = await Client.open(srv.url, seat.body.token);
    clients.push(again);
    again.sendRaw(JSON.stringify({ type: 'resync', since: 0 }));
    await again.next('snapshot');
    await run({ type: 'log.note', text: `${MARK}9`, audience: { kind: 'gm' } });
    await Promise.all([again, sp].map((c) => c.reach(gm.version)));

    // The GM saw them all (the canaries were really there); nobody else saw any.
    const gmText = gm.frames.join('\n');
    for (let n = 1; n <= 9; n++) expect(gmText).toContain(`${MARK}${n}`);
    for (const c of clients) expect(c.frames.join('\n')).not.toContain(MARK);
    await Promise.all([gm, again, sp].map((c) => c.close()));
  });
});
