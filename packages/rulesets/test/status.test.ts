// A status query per ruleset (issue 17): `<ns>.status` answers with what the
// table shows (round, turn, escalation die, bands, phase, Beats, Fear, Hope,
// light...) in the shape its declaration gives, and a player's answer never
// holds what their view does not (ADR 10).
import { describe, expect, it } from 'vitest';
import { getEncounter, seededRng, type Command, type Engine, type Json, type QueryDeclaration, type Table, type Transaction, type Viewer } from '@tablekeeper/engine';
import { engineFor, resolveSettings, rulesetIds } from '../src/registry.js';

const GM: Viewer = { role: 'gm' };
const NS: { readonly [ruleset: string]: string } = { osr: 'osr', '36th-way': '36th-way', teams: 'teams', kleptonomicon: 'kleptonomicon', daggerheart: 'daggerheart' };

function table(rulesetId: string, overrides: { [k: string]: Json } = {}) {
  const engine: Engine = engineFor(rulesetId)!;
  const settings = resolveSettings(rulesetId, overrides);
  if (!settings.ok) throw new Error(settings.error.message);
  const rng = seededRng(5);
  const t = {
    engine,
    table: engine.createTable({ tableId: 't', name: 'Status', rulesetId, settings: settings.value }) as Table,
    run(c: Command, actor: Viewer = GM): Transaction {
      const r = engine.execute(t.table, c, { rng, actor });
      if (!r.ok) throw new Error(`${c.type}: ${r.error.code} ${r.error.message}`);
      t.table = r.value.table;
      return r.value.transaction;
    },
    minted(c: Command): string {
      const tx = t.run(c);
      return tx.kind === 'command' ? String(tx.events[0]!['id']) : '';
    },
    status(viewer: Viewer = GM): { [k: string]: Json } {
      const type = `${NS[rulesetId]}.status`;
      const r = engine.query(t.table, viewer, type, {});
      if (!r.ok) throw new Error(`${type}: ${r.error.message}`);
      // Every answer has the declared shape.
      const decl = engine.catalog.find((d) => d.type === type) as QueryDeclaration;
      const parsed = decl.result.safeParse(r.value);
      expect(parsed.success, JSON.stringify(parsed.error?.issues[0] ?? null)).toBe(true);
      return r.value as { [k: string]: Json };
    },
  };
  const seat = t.minted({ type: 'seat.add', name: 'Ann' });
  return { ...t, get t() { return t; }, ann: { role: 'player', seatId: seat } as Viewer, seat };
}

/** End turns (choosing the first offered when the order asks) until round `round` starts. */
function toRound(f: ReturnType<typeof table>, round: number): void {
  for (let i = 0; i < 80 && getEncounter(f.t.table.world).round < round; i++) {
    const e = getEncounter(f.t.table.world);
    f.t.run(e.pending !== null ? { type: 'encounter.choose', id: e.pending.options[0]! } : { type: 'encounter.endTurn' });
  }
  expect(getEncounter(f.t.table.world).round).toBe(round);
}

describe('every ruleset answers <ns>.status, declared for everyone (spectators too, ADR 39) with a result schema', () => {
  for (const id of rulesetIds) {
    it(`${id}: between fights the encounter is null and the clock is at the table's start`, () => {
      const f = table(id);
      const decl = f.t.engine.catalog.find((d) => d.type === `${NS[id]}.status`)!;
      expect(decl).toMatchObject({ kind: 'query', who: 'everyone' });
      expect(f.t.status()).toMatchObject({ encounter: null, clock: { seconds: 0, hour: 0 } });
      expect(f.t.status(f.ann)).toMatchObject({ encounter: null });
    });
  }
});

describe('36th Way: the escalation die and the bands (002 "Escalation Die", "Initiative Bands")', () => {
  it('round 1 shows the die at 0, round 3 at 2; each band lists who sits in it; a hidden foe is the GM\'s alone', () => {
    const f = table('36th-way');
    f.t.run({ type: 'encounter.start', combatants: [
      { id: 'ann', name: 'Ann', kind: 'pc', side: 'party', band: 'fast' },
      { id: 'orc', name: 'Orc', kind: 'npc', side: 'foes', band: 'medium' },
      { id: 'shade', name: 'Shade', kind: 'npc', side: 'foes', band: 'slow', visibility: 'hidden' },
    ] } as unknown as Command);
    const first = f.t.status();
    expect(first['encounter']).toMatchObject({ round: 1, escalation: 0 });
    expect(first['bands']).toEqual([{ band: 'fast', combatantIds: ['ann'] }, { band: 'medium', combatantIds: ['orc'] }, { band: 'slow', combatantIds: ['shade'] }]);
    toRound(f, 3);
    expect(f.t.status()['encounter']).toMatchObject({ round: 3, escalation: 2 });
    const seen = f.t.status(f.ann);
    expect(seen['encounter']).toMatchObject({ escalation: 2 });
    expect(JSON.stringify(seen)).not.toContain('shade');
    expect(JSON.stringify(seen)).not.toContain('Shade');
  });
});

describe('Kleptonomicon: the Episode phase and the Beats (004)', () => {
  it('starting an Episode shows the Opening Credits; in a fight the current turn has its two Beats, one after an ability', () => {
    const f = table('kleptonomicon');
    expect(f.t.status()).toMatchObject({ episode: 0, phase: 'between', encounterPhase: null, beatsLeft: null });
    f.t.run({ type: 'kleptonomicon.startEpisode' });
    expect(f.t.status(f.ann)).toMatchObject({ episode: 1, phase: 'opening' });
    f.t.run({ type: 'kleptonomicon.freeplay' });
    f.t.run({ type: 'encounter.start', combatants: [{ id: 'ann', name: 'Ann', kind: 'pc', stats: { edgeSave: 2 } }, { id: 'guard', name: 'Guard', kind: 'npc', stats: { edgeSave: 0 } }] } as unknown as Command);
    for (let i = 0; i < 10 && getEncounter(f.t.table.world).current === null; i++) {
      const e = getEncounter(f.t.table.world);
      if (e.pending === null) break;
      f.t.run({ type: 'encounter.choose', id: e.pending.options[0]! });
    }
    const s = f.t.status();
    expect((s['encounter'] as { currentId: string | null }).currentId).not.toBeNull();
    expect(s['beatsLeft']).toBe(2);
    f.t.run({ type: 'encounter.spend', combatant: 'ann', kind: 'ability' });
    expect(f.t.status()).toMatchObject({ beatsLeft: 1, encounter: { remaining: { beats: 1 } } });
  });
});

describe('Daggerheart: Fear, Hope and slots (000 "Fear", "Hope")', () => {
  it('Fear gained shows to all by default; with fearVisible off the players get null and the GM the number', () => {
    const open = table('daggerheart');
    open.t.run({ type: 'daggerheart.gainFear', amount: 2 });
    expect(open.t.status(open.ann)['fear']).toBe(2);
    const closed = table('daggerheart', { 'daggerheart.fearVisible': false });
    closed.t.run({ type: 'daggerheart.gainFear', amount: 3 });
    expect(closed.t.status()['fear']).toBe(3);
    expect(closed.t.status(closed.ann)['fear']).toBeNull();
  });

  it("a PC's Hope and marked HP read from the sheet: 7 damage against Major 5 / Severe 10 marks 2 of 6 HP; a hidden NPC is not listed", () => {
    const f = table('daggerheart');
    const ann = f.t.minted({ type: 'character.add', name: 'Ann', kind: 'pc', seatId: f.seat });
    f.t.minted({ type: 'character.add', name: 'Lurker', kind: 'pc', visibility: 'hidden' });
    f.t.run({ type: 'character.sheet.set', characterId: ann, sheet: { major: 5, severe: 10, hope: 3 }, patch: true });
    f.t.run({ type: 'daggerheart.takeDamage', characterId: ann, amount: 7 });
    const seen = f.t.status(f.ann);
    expect(seen['pcs']).toEqual([{ characterId: ann, name: 'Ann', hope: 3, hp: { marked: 2, slots: 6 }, stress: { marked: 0, slots: 6 }, armor: { marked: 0, slots: 0 } }]);
    expect(JSON.stringify(seen)).not.toContain('Lurker');
    expect((f.t.status()['pcs'] as Json[]).length).toBe(1);
  });
});

describe('OSR: the light and the hour (001 "Light", "Time")', () => {
  it('a lit torch shows as burning until its hour; the scene light is the GM\'s setting', () => {
    const f = table('osr');
    const ann = f.t.minted({ type: 'character.add', name: 'Ann', kind: 'pc', seatId: f.seat });
    f.t.run({ type: 'osr.setLight', level: 'dim' });
    f.t.run({ type: 'osr.lightSource', kind: 'torch', owner: ann });
    const s = f.t.status(f.ann);
    expect(s).toMatchObject({ light: 'dim', turnsOut: 0, dyingIds: [], deadIds: [] });
    expect(s['burning']).toEqual([expect.objectContaining({ ownerId: ann })]);
    expect((s['burning'] as { burnsOutAt: number }[])[0]!.burnsOutAt).toBeGreaterThan(0);
  });
});

describe('teams: the acting team and the sheets in words (003)', () => {
  it('each visible sheet shows its tracks in words; a fresh sheet is unhurt', () => {
    const f = table('teams');
    const ann = f.t.minted({ type: 'character.add', name: 'Ann', kind: 'pc', seatId: f.seat });
    f.t.run({ type: 'character.sheet.set', characterId: ann, sheet: { attributes: { strength: 8 }, maxHealth: 10, maxEndurance: 8, endurance: 8 } });
    expect(f.t.status(f.ann)).toMatchObject({ sheets: [{ id: ann, name: 'Ann', status: 'unhurt' }], pendingAttacks: [], atRiskIds: [] });
  });
});
