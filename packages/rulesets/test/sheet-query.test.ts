// The `character.sheet` query (issue 20): the phone's own-sheet form starts
// from the stored sheet and offers only the fields its ruleset lets a player
// change. Answered on the asker's own view; another seat's character is refused.
import { describe, expect, it } from 'vitest';
import { seededRng, type Command, type Json, type Table, type Transaction, type Viewer } from '@tablekeeper/engine';
import { engineFor, resolveSettings, rulesetIds, sheetSchemaFor } from '../src/registry.js';

const GM: Viewer = { role: 'gm' };

function table(rulesetId: string) {
  const engine = engineFor(rulesetId)!;
  const settings = resolveSettings(rulesetId);
  if (!settings.ok) throw new Error(settings.error.message);
  const rng = seededRng(3);
  let t: Table = engine.createTable({ tableId: 't', name: 'Sheets', rulesetId, settings: settings.value });
  const run = (c: Command, actor: Viewer = GM): Transaction => {
    const r = engine.execute(t, c, { rng, actor });
    if (!r.ok) throw new Error(`${c.type}: ${r.error.code} ${r.error.message}`);
    t = r.value.table;
    return r.value.transaction;
  };
  const minted = (tx: Transaction) => (tx.kind === 'command' ? String(tx.events[0]!['id']) : '');
  const seat = minted(run({ type: 'seat.add', name: 'Ann' }));
  const other = minted(run({ type: 'seat.add', name: 'Bo' }));
  const ann: Viewer = { role: 'player', seatId: seat };
  const bo: Viewer = { role: 'player', seatId: other };
  const annId = minted(run({ type: 'character.add', name: 'Ann', kind: 'pc', seatId: seat }));
  const ask = (viewer: Viewer, characterId: string) => engine.query(t, viewer, 'character.sheet', { characterId });
  const tryRun = (c: Command, actor: Viewer) => {
    const r = engine.execute(t, c, { rng, actor });
    if (r.ok) t = r.value.table;
    return r;
  };
  return { run, tryRun, ask, ann, bo, annId };
}

const patch = (characterId: string, sheet: { [k: string]: Json }): Command => ({ type: 'character.sheet.set', characterId, sheet, patch: true });

describe('character.sheet: what the phone form starts from', () => {
  for (const id of rulesetIds) {
    it(`${id}: Ann reads her own sheet and the fields she may change (the sheet model's playerEditable); Bo is refused hers`, () => {
      const t = table(id);
      const mine = t.ask(t.ann, t.annId);
      expect(mine.ok).toBe(true);
      if (!mine.ok) return;
      expect((mine.value as { playerEditable: string[] }).playerEditable).toEqual(sheetSchemaFor(id)!.playerEditable);
      expect(t.ask(t.bo, t.annId)).toMatchObject({ ok: false, error: { code: 'FORBIDDEN', path: 'characterId' } });
      expect(t.ask(GM, t.annId).ok).toBe(true);
    });
  }

  it('OSR (001 "Encumbrance"): Ann sets her load to 3 from the phone; the query then answers 3', () => {
    const t = table('osr');
    t.run(patch(t.annId, { maxHp: 8 }));
    t.run(patch(t.annId, { load: 3 }), t.ann);
    const r = t.ask(t.ann, t.annId);
    expect(r.ok && (r.value as { sheet: { load: number } }).sheet.load).toBe(3);
  });

  it('The 36th Way: Ann switches her stance to ranged on the sheet the GM made; her level stays the GM\'s', () => {
    const t = table('36th-way');
    t.run(patch(t.annId, { level: 2, maxHp: 20 }));
    t.run(patch(t.annId, { stance: 'ranged' }), t.ann);
    const r = t.ask(t.ann, t.annId);
    expect(r.ok && (r.value as { sheet: { stance: string; level: number } }).sheet).toMatchObject({ stance: 'ranged', level: 2 });
    const refused = t.tryRun(patch(t.annId, { level: 5 }), t.ann);
    expect(refused).toMatchObject({ ok: false, error: { code: 'FORBIDDEN', path: 'sheet.level' } });
  });

  it('Daggerheart: the GM marks 2 Stress and Ann reads it, with nothing hers to change; Hope past the sheet\'s limit (100) is refused naming the field', () => {
    const t = table('daggerheart');
    t.run(patch(t.annId, { stressMarked: 2 }));
    const r = t.ask(t.ann, t.annId);
    expect(r.ok && (r.value as { sheet: { stressMarked: number }; playerEditable: string[] })).toMatchObject({ sheet: { stressMarked: 2 }, playerEditable: [] });
    const tooMuch = t.tryRun(patch(t.annId, { hope: 101 }), GM);
    expect(tooMuch).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'sheet.hope', message: 'sheet.hope: must be an integer from 0 to 100' } });
  });
});
