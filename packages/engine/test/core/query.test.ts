// Queries: read-only questions answered on the asker's own projected world.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createEngine, coreModule, declareQuery, defineQuery, ok, scenario, type Module, type Viewer, type Who } from '../../src/core/index.js';

const askMod: Module = {
  id: 'ask',
  queries: {
    'ask.characters': (world, args) => ok({ count: Object.keys(world.characters).length, names: Object.values(world.characters).map((c) => c.name), echo: args['echo'] ?? null }),
    'ask.broken': () => {
      throw new Error('boom');
    },
  },
};

describe('engine.query', () => {
  it('answers on the viewer\'s projection: a player\'s answer never counts what the GM hides', () => {
    const s = scenario([askMod]);
    s.run({ type: 'seat.add', name: 'Ann' });
    s.run({ type: 'character.add', name: 'Brannoc', kind: 'pc', seatId: 'seat-1' });
    s.run({ type: 'character.add', name: 'CANARY-lurker', kind: 'npc', visibility: 'hidden' });
    const gm = s.engine.query(s.table, { role: 'gm' }, 'ask.characters', { echo: 7 });
    expect(gm).toEqual({ ok: true, value: { count: 2, names: ['Brannoc', 'CANARY-lurker'], echo: 7 } });
    const ann = s.engine.query(s.table, { role: 'player', seatId: 'seat-1' }, 'ask.characters');
    expect(ann).toEqual({ ok: true, value: { count: 1, names: ['Brannoc'], echo: null } });
    expect(JSON.stringify(s.engine.query(s.table, { role: 'spectator' }, 'ask.characters'))).not.toContain('CANARY');
  });

  it('gives typed errors for an unknown query, bad arguments and a query that throws', () => {
    const s = scenario([askMod]);
    expect(s.engine.query(s.table, { role: 'gm' }, 'ask.nothing')).toMatchObject({ ok: false, error: { code: 'UNKNOWN_COMMAND', path: 'name' } });
    expect(s.engine.query(s.table, { role: 'gm' }, 'ask.characters', [1, 2])).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'args' } });
    expect(s.engine.query(s.table, { role: 'gm' }, 'ask.broken')).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', message: expect.stringContaining('boom') } });
  });

  it('refuses two modules answering the same query name', () => {
    expect(() => createEngine([coreModule, askMod, { id: 'other', queries: { 'ask.characters': () => ok(null) } }])).toThrow(/answered by both ask and other/);
  });

  it('enforces who may ask (ADR 39): spectators only queries for everyone, players all but the GM\'s, the GM all', () => {
    const decl = (who: Who) => declareQuery(`who.${who}`, { summary: `a query for ${who}`, who, input: z.strictObject({}), result: z.string() });
    const whos: Who[] = ['gm', 'own-character', 'anyone', 'everyone'];
    const mod: Module = { id: 'who', queries: Object.fromEntries(whos.map((w) => [`who.${w}`, defineQuery(decl(w), () => ok('CANARY'))])), catalog: Object.fromEntries(whos.map((w) => [`who.${w}`, decl(w)])) };
    const s = scenario([mod]);
    s.run({ type: 'seat.add', name: 'Ann' });
    const roles: [string, Viewer][] = [['gm', { role: 'gm' }], ['player', { role: 'player', seatId: 'seat-1' }], ['spectator', { role: 'spectator' }]];
    const allowed: { [role: string]: Who[] } = { gm: whos, player: ['own-character', 'anyone', 'everyone'], spectator: ['everyone'] };
    for (const [role, viewer] of roles) {
      for (const w of whos) {
        const r = s.engine.query(s.table, viewer, `who.${w}`, { unknown: 'x' });
        if (allowed[role]!.includes(w)) expect(r, `${role} asks who.${w}`).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE' } });
        else expect(r, `${role} asks who.${w}`).toMatchObject({ ok: false, error: { code: 'FORBIDDEN', path: 'name' } });
        if (allowed[role]!.includes(w)) expect(s.engine.query(s.table, viewer, `who.${w}`, {})).toEqual({ ok: true, value: 'CANARY' });
      }
    }
  });
});
