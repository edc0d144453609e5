// A teams fortify-or-fall choice raised for a PC who is not in the running fight
// (ADR 112's leftover, ADR 117), over real HTTP and WebSocket against a SQLite
// file, on the real registry. The GM's blow reaches her player's socket in the
// same change that raised it; the player's reactions query offers the same
// Fortify (the reaction, 1 stamina) and Fall, with the same odds, as between
// fights; her answer lands on her kept sheet and the log; and the fight that
// runs without her is left as it was and goes on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueryResult } from '@tablekeeper/protocol';
import { registryCatalog } from '../src/index.js';
import { Client, http, testServer } from './helpers.js';

let srv: Awaited<ReturnType<typeof testServer>>;
beforeAll(async () => {
  srv = await testServer({ catalog: registryCatalog() });
});
afterAll(async () => {
  await srv.cleanup();
});

type Teams = { sheets: { [id: string]: { [k: string]: unknown } }; atRisk: { [id: string]: { difficulty?: number } } };
type Enc = { active: boolean; round: number; current: string | null; roster: string[]; acted: string[]; economy: { [id: string]: unknown }; turnSerial: number };
type Action = { id: string; label: string; cost: string; allowed: boolean; command: string; fixed: { [k: string]: unknown }; odds?: { query: string; args: { [k: string]: unknown } } };
type Reactions = { prompts: { id: string; kind: string; text: string; actions: Action[] }[] };

let q = 0;
async function ask<T>(c: Client, name: string, args: { [k: string]: unknown }): Promise<T> {
  const queryId = `q${++q}`;
  const answer = c.next((m) => m.type === 'queryResult' && m.queryId === queryId);
  c.sendRaw(JSON.stringify({ type: 'query', queryId, name, args }));
  const r = (await answer) as QueryResult;
  if (!r.ok) throw new Error(`${name}: ${JSON.stringify(r.error)}`);
  return r.result as T;
}

async function ok(c: Client, command: { type: string; [k: string]: unknown }): Promise<void> {
  const a = await c.command(command);
  if (a.type !== 'ack') throw new Error(`${command.type}: ${JSON.stringify(a)}`);
}

const teamsOf = (c: Client) => c.view!.world.ext['teams'] as unknown as Teams;
const encOf = (c: Client) => c.view!.world.ext['encounter'] as unknown as Enc;
/** What a fight is, as its fighters play it: an answer from outside it must change none of this. */
const fightOf = (c: Client) => {
  const e = encOf(c);
  return { active: e.active, round: e.round, current: e.current, roster: e.roster, acted: e.acted, economy: e.economy, turnSerial: e.turnSerial };
};

// The text's Boudica (003 "Damage"): strength d6, athletics d4, fortitude +1, constitution 4, 12 endurance and health, 4 stamina.
const boudica = { attributes: { strength: 6 }, skills: { combat: 6, athletics: 4 }, proficiencies: { fortitude: 1 }, evasion: 5, constitution: 4, maxEndurance: 12, maxHealth: 12, maxStamina: 4 };

describe('a fortify-or-fall choice for a PC outside the running fight, over the wire (ADR 117)', () => {
  for (const before of ['no earlier fight', 'an earlier fight she was in'] as const) {
    it(`${before}: the GM's 7 then 10 leave Boudica at risk while Brak fights a goblin; Ana's socket holds the choice at once, fortifies at 141/160 and the fight is as it was, then goes on`, async () => {
      const t = await http<{ tableId: string; gmToken: string }>(srv.url, 'POST', '/api/tables', { name: 'Outside the fight', rulesetId: 'teams' });
      expect(t.status).toBe(201);
      const seat = await http<{ seatId: string; token: string }>(srv.url, 'POST', `/api/tables/${t.body.tableId}/seats`, { name: 'Ana' }, t.body.gmToken);
      const boSeat = await http<{ seatId: string; token: string }>(srv.url, 'POST', `/api/tables/${t.body.tableId}/seats`, { name: 'Bo' }, t.body.gmToken);
      const gm = await Client.open(srv.url, t.body.gmToken);
      const ana = await Client.open(srv.url, seat.body.token);
      try {
        await ok(gm, { type: 'character.add', name: 'Boudica', kind: 'pc', seatId: seat.body.seatId, stats: {} });
        const b = Object.keys(gm.view!.world.characters)[0]!;
        await ok(gm, { type: 'character.add', name: 'Brak', kind: 'pc', seatId: boSeat.body.seatId, stats: {} });
        const brak = Object.keys(gm.view!.world.characters).find((id) => id !== b)!;
        await ok(gm, { type: 'character.sheet.set', characterId: b, sheet: boudica });
        await ok(gm, { type: 'character.sheet.set', characterId: brak, sheet: { ...boudica, attributes: { strength: 4 } } });
        const goblin = { id: 'gob', name: 'Goblin', kind: 'npc', side: 'foes' };
        const withBrak = { id: brak, name: 'Brak', kind: 'pc', side: 'players', characterId: brak };
        if (before === 'an earlier fight she was in') {
          await ok(gm, { type: 'encounter.start', combatants: [{ id: b, name: 'Boudica', kind: 'pc', side: 'players', characterId: b }, withBrak, goblin], params: { teamOrder: ['players', 'foes'] } });
          await ok(gm, { type: 'encounter.end' });
        }
        await ok(gm, { type: 'encounter.start', combatants: [withBrak, goblin], params: { teamOrder: ['players', 'foes'] } });
        await ana.reach(gm.version);
        expect(encOf(ana).roster).not.toContain(b);
        const fight = fightOf(gm);
        expect(fight.active).toBe(true);

        // 003 "Damage": 7 takes endurance 12 -> 5; 10 more takes it to 0 and health 12 -> 7, missing 5 past constitution 4.
        await ok(gm, { type: 'teams.damage', targetId: b, amount: 7, reduce: false });
        await ok(gm, { type: 'teams.damage', targetId: b, amount: 10, reduce: false });
        expect(teamsOf(gm).sheets[b]).toMatchObject({ endurance: 0, health: 7, conscious: true, stamina: 4 });
        // Her player's socket holds the choice in the very change that raised it (no fight's end needed).
        await ana.reach(gm.version);
        expect(teamsOf(ana).atRisk).toEqual({ [b]: { difficulty: 5 } });

        const r = await ask<Reactions>(ana, 'teams.reactions', { characterId: b });
        expect(r.prompts.map((p) => [p.kind, p.text])).toEqual([['atRisk', 'Boudica is losing consciousness: fortify against 5 or fall unconscious.']]);
        const fortify = r.prompts[0]!.actions.find((a) => a.id === 'fortify')!;
        expect(fortify).toMatchObject({ label: 'Fortify', cost: 'the reaction, 1 stamina', allowed: true, command: 'teams.stayConscious' });
        expect(r.prompts[0]!.actions.find((a) => a.id === 'fall')).toMatchObject({ label: 'Fall unconscious', cost: 'nothing', allowed: true });
        // d6 + d4 + 1 >= 5 fails on 3 of the 24 pairs ((1,1), (1,2), (2,1)); a luck 20 (1 in 20) adds 4 and saves those:
        // 19/20 x 21/24 + 1/20 = 141/160, as between fights: her guard bonus counts only inside a fight she is in.
        const test = { attribute: 'strength', skill: 'athletics', proficiency: 'fortitude' };
        const odds = await ask<{ pass: number }>(ana, fortify.odds!.query, { ...fortify.odds!.args, test });
        expect(odds.pass).toBeCloseTo(141 / 160, 12);

        await ok(ana, { type: fortify.command, ...fortify.fixed, test });
        await gm.reach(ana.version);
        expect(teamsOf(gm).atRisk).toEqual({});
        expect(teamsOf(ana).atRisk).toEqual({});
        // The reaction outside a fight spends no fighter's economy, only her stamina.
        expect(teamsOf(ana).sheets[b]).toMatchObject({ stamina: 3 });
        const line = ana.view!.world.log.map((l) => l.text).find((x) => x.startsWith('Boudica fortified: '));
        expect(line).toMatch(/^Boudica fortified: \d+ against 5, (stays conscious|fails)\.$/);
        const [, total, outcome] = /^Boudica fortified: (\d+) against 5, (stays conscious|fails)\.$/.exec(line!)!;
        expect(outcome === 'stays conscious').toBe(Number(total) >= 5);
        expect(teamsOf(gm).sheets[b]!['conscious']).toBe(outcome === 'stays conscious');

        // The fight that runs without her: the same round, turn, roster, actions spent and turn count; then it goes on.
        expect(fightOf(gm)).toEqual(fight);
        expect(fightOf(ana)).toMatchObject({ active: true, round: fight.round, current: fight.current, roster: fight.roster });
        await ok(gm, { type: 'encounter.endTurn' });
        await ana.reach(gm.version);
        expect(encOf(ana)).toMatchObject({ active: true, current: 'gob' });
        expect(encOf(ana).turnSerial).toBeGreaterThan(fight.turnSerial);
      } finally {
        await Promise.all([gm.close(), ana.close()]);
      }
    }, 60_000);
  }
});
