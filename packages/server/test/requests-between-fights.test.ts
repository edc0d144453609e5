// A player's damage and healing requests between fights (ADR 110) over real
// HTTP and WebSocket against a SQLite file, on the real registry: in the 36th
// Way and teams they land on the character's own sheet (the one a fight
// reads), the player's socket reads the new numbers and the GM's approval line,
// and a condition between fights is refused in words.
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

type Sheets = { sheets: { [id: string]: { [k: string]: unknown } } };

describe('requests between fights over the wire (ADR 110)', () => {
  for (const [rulesetId, sheet, field, after] of [
    // 002: 24 - 5 = 19, then 19 + 3 = 22 (the GM's named healing).
    ['36th-way', { maxHp: 24, hp: 24 }, 'hp', [19, 22]],
    // 003 "Damage": endurance first, 12 - 5 = 7; healing goes to endurance while health is full: 7 + 3 = 10.
    ['teams', { maxEndurance: 12, maxHealth: 12, constitution: 4 }, 'endurance', [7, 10]],
  ] as const) {
    it(`${rulesetId}: Ana asks for 5 damage then 3 healing with no fight running; each GM approval changes her sheet, which her socket reads`, async () => {
      const t = await http<{ tableId: string; gmToken: string }>(srv.url, 'POST', '/api/tables', { name: 'Between fights', rulesetId });
      expect(t.status).toBe(201);
      const seat = await http<{ seatId: string; token: string }>(srv.url, 'POST', `/api/tables/${t.body.tableId}/seats`, { name: 'Ana' }, t.body.gmToken);
      const gm = await Client.open(srv.url, t.body.gmToken);
      const ana = await Client.open(srv.url, seat.body.token);
      try {
        const ok = async (c: Client, command: { type: string; [k: string]: unknown }) => {
          const a = await c.command(command);
          if (a.type !== 'ack') throw new Error(`${command.type}: ${JSON.stringify(a)}`);
        };
        await ok(gm, { type: 'character.add', name: 'Kira', kind: 'pc', seatId: seat.body.seatId, stats: {} });
        const kira = Object.keys(gm.view!.world.characters)[0]!;
        await ok(gm, { type: 'character.sheet.set', characterId: kira, sheet });
        const onSheet = (c: Client) => (c.view!.world.ext[rulesetId] as unknown as Sheets).sheets[kira]![field];
        for (const [kind, amount, want] of [['damage', 5, after[0]], ['heal', 3, after[1]]] as const) {
          await ana.reach(gm.version);
          await ok(ana, { type: 'request.make', characterId: kira, kind, amount });
          await gm.reach(ana.version);
          const pending = (gm.view!.world.ext['request'] as unknown as { items: { id: string; status: string }[] }).items.find((r) => r.status === 'pending')!;
          await ok(gm, { type: 'request.approve', id: pending.id });
          await ana.reach(gm.version);
          expect(onSheet(ana)).toBe(want);
          expect(onSheet(gm)).toBe(want);
        }
        expect(ana.view!.world.log.map((l) => l.text)).toContain(`The GM approved 3 healing for Kira.`);
        const refused = await ana.command({ type: 'request.make', characterId: kira, kind: 'condition', condition: 'dazed' });
        expect(refused).toMatchObject({ type: 'rejection', error: { path: 'kind', message: "Kira is in no running fight: conditions are kept on a fight's combatants and wear off by their turns, so a condition can be asked for during an encounter" } });
      } finally {
        await Promise.all([gm.close(), ana.close()]);
      }
    }, 60_000);
  }
});
