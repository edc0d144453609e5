// An attack's reach over real HTTP and WebSocket against a SQLite file (ADR
// 124): a player's attack at a target said to be beyond its reach is refused
// in words, nothing rolled; one in reach is logged with its distance for
// everyone; a hidden foe's attack (its reach, the distance said) reaches the
// GM only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getEncounter, type World } from '@tablekeeper/engine';
import { registryCatalog } from '../src/index.js';
import { Client, http, testServer } from './helpers.js';

let srv: Awaited<ReturnType<typeof testServer>>;
beforeAll(async () => {
  srv = await testServer({ catalog: registryCatalog() });
});
afterAll(async () => {
  await srv.cleanup();
});

describe('Kleptonomicon reach over the wire', () => {
  it("refuses a player's attack beyond its reach in words, logs one in reach with its distance, and keeps a hidden foe's reach from the player", async () => {
    const t = await http<{ tableId: string; gmToken: string }>(srv.url, 'POST', '/api/tables', { name: 'Reach', rulesetId: 'kleptonomicon' });
    expect(t.status).toBe(201);
    const seat = await http<{ seatId: string; token: string }>(srv.url, 'POST', `/api/tables/${t.body.tableId}/seats`, { name: 'Ann' }, t.body.gmToken);
    const gm = await Client.open(srv.url, t.body.gmToken);
    const player = await Client.open(srv.url, seat.body.token);
    const current = () => getEncounter(gm.view!.world as World).current;
    try {
      // Edge Save +30 passes against any group: Alice acts first.
      expect((await gm.command({ type: 'character.add', name: 'Alice', kind: 'pc', seatId: seat.body.seatId, stats: { edgeSave: 30, attackModifier: 0, attackDamage: '2', hp: 20 } })).type).toBe('ack');
      const alice = Object.values(gm.view!.world.characters).find((c) => c.name === 'Alice')!.id;
      const fangStats = { creatureType: 'wolf', edgeSave: 0, abilities: [{ id: 'howl-bolt', name: 'Howl Bolt', time: 'beat', attack: true, modifier: 0, reach: 'spitting' }] };
      for (const c of [
        { type: 'kleptonomicon.startEpisode' },
        { type: 'kleptonomicon.freeplay' },
        {
          type: 'encounter.start',
          combatants: [
            { id: 'alice', name: 'Alice', kind: 'pc', characterId: alice },
            { id: 'guard', name: 'Guard', kind: 'npc', stats: { creatureType: 'guard', edgeSave: 0, defense: 5, hp: 30 } },
            { id: 'fang', name: 'Fang', kind: 'npc', visibility: 'hidden', stats: fangStats },
          ],
        },
      ]) expect((await gm.command(c)).type).toBe('ack');
      expect(current()).toBe('alice');
      await player.reach(gm.version);

      const refused = await player.command({ type: 'kleptonomicon.attack', attackerId: 'alice', targetId: 'guard', distance: 'throwing' });
      expect(refused).toMatchObject({ type: 'rejection', error: { kind: 'RULE_ERROR', message: 'Guard is at Throwing Distance (8u); a melee attack reaches Swinging Distance (1u)', path: 'distance' } });
      expect((await player.command({ type: 'kleptonomicon.attack', attackerId: 'alice', targetId: 'guard', distance: 'swinging' })).type).toBe('ack');
      for (const c of [gm, player]) {
        await c.reach(gm.version);
        expect(c.view!.world.log.at(-1)?.text.startsWith("Alice's Basic Attack on Guard at Swinging Distance (1u): d10")).toBe(true);
      }

      // The foes' turns: the GM plays the hidden Fang's Howl Bolt at Spearing Distance; refused past its Spitting reach.
      // Foes of one group act in the GM's chosen order (encounter.choose); a turn ends with encounter.endTurn.
      for (let i = 0; i < 6 && current() !== 'fang'; i++) {
        const enc = getEncounter(gm.view!.world as World);
        const step = enc.pending !== null ? { type: 'encounter.choose', id: enc.pending.options.includes('fang') ? 'fang' : enc.pending.options[0] } : { type: 'encounter.endTurn' };
        expect((await gm.command(step)).type).toBe('ack');
      }
      expect(current()).toBe('fang');
      const past = await gm.command({ type: 'kleptonomicon.attack', attackerId: 'fang', targetId: 'alice', abilityId: 'howl-bolt', units: 6 });
      expect(past).toMatchObject({ type: 'rejection', error: { message: 'Alice is 6u away; Howl Bolt reaches Spitting Distance (4u)' } });
      expect((await gm.command({ type: 'kleptonomicon.attack', attackerId: 'fang', targetId: 'alice', abilityId: 'howl-bolt', distance: 'spearing', defense: 5 })).type).toBe('ack');
      await player.reach(gm.version);
      expect(gm.view!.world.log.at(-1)?.text.startsWith("Fang's Howl Bolt on Alice at Spearing Distance (2u):")).toBe(true);
      // Nothing of Fang's attack (its name, its reach, the distance said) in any frame the player received.
      const seen = player.frames.join('\n');
      for (const secret of ['Fang', 'Howl Bolt', 'howl-bolt', 'Spearing Distance', 'Spitting Distance', '6u away']) expect(seen).not.toContain(secret);
      // Whereas the player did receive the attack made in the open, distance included.
      expect(seen).toContain('Swinging Distance (1u)');
    } finally {
      await Promise.all([gm.close(), player.close()]);
    }
  });
});
