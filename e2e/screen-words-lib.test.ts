// Words, not raw names, on the GM and player screens (issue 20): the header
// names the ruleset as people know it, the Kleptonomicon's Edge Save order
// reads as where a PC acts among the foe groups (004 "Turn Order"), sheet
// forms label fields with their schema titles, and a form error names the
// field as its label does, with the limit.
import { describe, expect, it } from 'vitest';
import { rulesetIds, rulesetInfo, sheetSchemaFor } from '@tablekeeper/rulesets';
import { rulesetTitleOf } from '@tablekeeper/rulesets/browser';
import { placementLabel } from '../packages/web/src/lib/encounter.ts';
import { toPayload } from '../packages/web/src/lib/schemaForm.ts';
import { sheetFields, type SheetSchema } from '../packages/web/src/lib/sheetForm.ts';

const fieldsOf = (id: string) => sheetFields(sheetSchemaFor(id)! as SheetSchema);

describe('words on screen', () => {
  it.each(rulesetIds)('%s: the header title is the registry name', (id) => {
    expect(rulesetTitleOf(id)).toBe(rulesetInfo(id)!.name);
  });
  it('an unknown ruleset keeps its id', () => {
    expect(rulesetTitleOf('homebrew')).toBe('homebrew');
  });

  it('Edge Save slots: 0 acts before every foe group, N right after group N; foe groups count from 1', () => {
    expect(placementLabel({ slot: 0, score: 7, rolls: [] })).toBe('before the foes (Edge Save 7)');
    expect(placementLabel({ slot: 2, score: 4, rolls: [] })).toBe('after foe group 2 (Edge Save 4)');
    expect(placementLabel({ group: 0 })).toBe('foe group 1');
  });

  it('36th Way and Kleptonomicon sheet fields carry titles; no label is a camelCase key', () => {
    const tsw = fieldsOf('36th-way');
    const label = (fields: ReturnType<typeof fieldsOf>, key: string) => fields.find((f) => f.key === key)?.label;
    expect([label(tsw, 'ac'), label(tsw, 'maxHp'), label(tsw, 'rangedReach'), label(tsw, 'abilities')]).toEqual(['AC', 'Max HP', 'Ranged reach', 'Abilities']);
    const klepto = fieldsOf('kleptonomicon');
    expect(klepto.map((f) => f.label)).toEqual(['Edge Save', 'Defense', 'Health (full)', 'Health now', 'Sneaky', 'Movement styles', 'Basic Attack modifier', 'Basic Attack damage', 'Basic Attack kind', 'Abilities']);
    for (const f of [...tsw, ...klepto]) expect(f.label).not.toMatch(/[a-z][A-Z]/);
  });

  it('a form error names the field by its label and says the limit, never the path', () => {
    const tsw = fieldsOf('36th-way');
    const r = toPayload(tsw, { ac: '2000' });
    expect(r.ok ? [] : r.errors).toEqual([{ path: 'ac', message: 'AC must be from 0 to 1000.' }]);
    // Nested: the ability's place in the list and its attack's field, as the form labels them.
    const nested = toPayload(tsw, { abilities: [{ id: 'fork', attack: { targets: '99' } }] });
    expect(nested.ok ? [] : nested.errors.map((e) => e.message)).toEqual(['Most targets of Attack in Ability 1 must be from 1 to 20.']);
    const k = toPayload(fieldsOf('kleptonomicon'), { defense: '101' });
    expect(k.ok ? [] : k.errors.map((e) => e.message)).toEqual(['Defense must be from 0 to 100.']);
  });
});
