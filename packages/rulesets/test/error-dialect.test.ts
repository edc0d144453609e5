// One error dialect (issue 17, STYLE 3) in the 36th Way and the Kleptonomicon:
// anything missing is NOT_FOUND with the path of the field that named it, a
// malformed value INVALID_VALUE; ruleset codes are left to rule outcomes.
import { describe, expect, it } from 'vitest';
import { seededRng, type Command, type Table, type Viewer } from '@tablekeeper/engine';
import { engineFor } from '../src/registry.js';

const GM: Viewer = { role: 'gm' };
const OLD_CODES = ['BAD_INPUT', 'BAD_SHEET', 'BAD_ABILITY', 'UNKNOWN_SHEET', 'UNKNOWN_COMBATANT', 'UNKNOWN_CHARACTER', 'UNKNOWN_REQUEST', 'UNKNOWN_ABILITY', 'UNKNOWN_CONDITION', 'UNKNOWN_CONDITION_INSTANCE'];

function tableOf(id: string, commands: readonly Command[]): Table {
  const engine = engineFor(id)!;
  let t = engine.createTable({ tableId: 't', name: 'Dialect', rulesetId: id });
  for (const c of commands) {
    const r = engine.execute(t, c, { rng: seededRng(2), actor: GM });
    if (!r.ok) throw new Error(`${c.type}: ${r.error.message}`);
    t = r.value.table;
  }
  return t;
}

describe('the 36th Way: missing is NOT_FOUND with a path', () => {
  const t = tableOf('36th-way', [{ type: '36th-way.sheet.set', sheet: { id: 'ann', name: 'Ann', kind: 'pc', level: 1, maxHp: 30, abilities: [{ id: 'cleave', frequency: 'encounter' }] } }]);
  const cases: [Command, string][] = [
    [{ type: '36th-way.damage', targetId: 'ghost', amount: 1 }, 'targetId'],
    [{ type: '36th-way.check', characterId: 'ghost', difficulty: 10 }, 'characterId'],
    [{ type: '36th-way.position', fromId: 'ann', toId: 'ghost', range: 'far' }, 'toId'],
    [{ type: '36th-way.attack', attackerId: 'ann', targetIds: ['ghost'], basic: 'melee' }, 'targetIds.0'],
    [{ type: '36th-way.useAbility', characterId: 'ann', ability: 'nothing' }, 'ability'],
    [{ type: '36th-way.quickRest', recoveries: { ghost: 1 } }, 'recoveries.ghost'],
  ];
  it.each(cases)('%j names %s', (c, path) => {
    expect(engineFor('36th-way')!.execute(t, c, { rng: seededRng(1), actor: GM })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', path } });
  });

  it('a malformed field the schema cannot judge is INVALID_VALUE (restore with nothing to give back; 002 "Full Rest" downtime)', () => {
    expect(engineFor('36th-way')!.execute(t, { type: '36th-way.restore', characterId: 'ann' }, { rng: seededRng(1), actor: GM })).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'recoveries' } });
  });
});

describe('the Kleptonomicon: missing is NOT_FOUND with a path', () => {
  const t = tableOf('kleptonomicon', [{ type: 'kleptonomicon.startEpisode' }, { type: 'kleptonomicon.freeplay' }]);
  const cases: [Command, string][] = [
    [{ type: 'kleptonomicon.test', characterId: 'ghost' }, 'characterId'],
    [{ type: 'kleptonomicon.looseOrder', order: ['ghost'] }, 'order[0]'],
    [{ type: 'kleptonomicon.rule', improvisationId: 'imp-ghost', ruling: 'simple' }, 'improvisationId'],
    [{ type: 'kleptonomicon.awardXp', characterId: 'ghost', amount: 1 }, 'characterId'],
    [{ type: 'kleptonomicon.setResource', characterId: 'ghost', key: 'health', value: 1 }, 'characterId'],
  ];
  it.each(cases)('%j names %s', (c, path) => {
    expect(engineFor('kleptonomicon')!.execute(t, c, { rng: seededRng(1), actor: GM })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', path } });
  });
});

describe('no old codes are left', () => {
  it('generated refusals across both rulesets use none of the retired codes', () => {
    const seen = new Set<string>();
    for (const id of ['36th-way', 'kleptonomicon']) {
      const engine = engineFor(id)!;
      const t = engine.createTable({ tableId: 't', name: 'Dialect', rulesetId: id });
      for (const d of engine.catalog.filter((x) => x.kind === 'command' && x.type.startsWith(`${id}.`))) {
        // Every field names an id nobody has: each command is refused, by the schema or by the rule.
        const r = engine.execute(t, { type: d.type, characterId: 'ghost', targetId: 'ghost', attackerId: 'ghost' }, { rng: seededRng(1), actor: GM });
        if (!r.ok) seen.add(r.error.code);
      }
    }
    expect([...seen].filter((c) => OLD_CODES.includes(c))).toEqual([]);
    expect(seen.has('NOT_FOUND') || seen.has('INVALID_VALUE')).toBe(true);
  });
});
