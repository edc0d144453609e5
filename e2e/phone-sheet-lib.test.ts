// The phone's own-sheet form without a DOM (issue 20): the sheet schema cut
// to the player's fields, the values it starts from, and the patch it sends.
import { describe, expect, it } from 'vitest';
import { rulesetIds, sheetSchemaFor } from '@tablekeeper/rulesets';
import { phoneSheetCommand, phoneSheetInitial, playerSheetSchema } from '../packages/web/src/lib/phoneSheet.ts';
import { fieldsOf, toPayload } from '../packages/web/src/lib/schemaForm.ts';

describe('playerSheetSchema', () => {
  it.each(rulesetIds)('%s: the form has exactly the fields the sheet model lets a player change', (id) => {
    const s = sheetSchemaFor(id)!;
    const cut = playerSheetSchema(s.schema, s.playerEditable);
    expect(fieldsOf(cut).map((f) => f.key).sort()).toEqual([...s.playerEditable].sort());
  });

  it('OSR: the load field keeps its limits (0 to 200) and starts from the stored value; the patch names only it', () => {
    const s = sheetSchemaFor('osr')!;
    const cut = playerSheetSchema(s.schema, s.playerEditable);
    const initial = phoneSheetInitial(cut, { load: 4, str: 12 });
    const fields = fieldsOf(cut);
    const good = toPayload(fields, initial);
    expect(good).toEqual({ ok: true, payload: { load: 4 } });
    const bad = toPayload(fields, { ...initial, load: '201' });
    expect(bad.ok).toBe(false);
    expect(phoneSheetCommand('ch-1', { load: 4 })).toEqual({ type: 'character.sheet.set', characterId: 'ch-1', sheet: { load: 4 }, patch: true });
  });

  it('the Kleptonomicon lets a player change nothing: the form has no fields', () => {
    const s = sheetSchemaFor('kleptonomicon')!;
    expect(fieldsOf(playerSheetSchema(s.schema, s.playerEditable))).toEqual([]);
  });
});
