// Review 12 #1: the Invite's quick character gets its ruleset's sheet in the
// same batch as the character (ADR 73), with the HP and what the invite asked
// (teams: endurance, stamina, constitution), and one Undo takes both back.
// Run through the real engines with the commands the Invite panel sends.
import { describe, expect, it } from 'vitest';
import { scenario, seededRng, type Command, type Json, type Scenario } from '@tablekeeper/engine';
import { countingIds } from '@tablekeeper/engine/testing';
import { engineFor, resolveSettings } from '@tablekeeper/rulesets';
import { inviteNeedsOf } from '@tablekeeper/rulesets/browser';
import { addThen } from '../packages/web/src/lib/made.ts';
import { inviteSheetCommand } from '../packages/web/src/lib/tswSheets.ts';
import type { ClientCommand } from '../packages/web/src/net/codec.ts';

function table(id: string): Scenario {
  const settings = resolveSettings(id);
  if (!settings.ok) throw new Error(settings.error.message);
  return scenario(engineFor(id)!.modules, { rng: countingIds(seededRng(3)), rulesetId: id, settings: settings.value });
}
const sheets = (s: Scenario, ns: string) => (s.world.ext[ns] as { sheets: { [k: string]: { [k: string]: Json } } } | undefined)?.sheets ?? {};

/** What the Invite panel sends for one character: the add with its stats, then the sheet for the new id, as one batch. */
function invite(s: Scenario, name: string, hp: number, asked: { [k: string]: number }): string {
  const add = { type: 'character.add', name, kind: 'pc', seatId: null, stats: { hp, maxHp: hp, ...asked } } as unknown as ClientCommand;
  const sheet = inviteSheetCommand(s.world.rulesetId, '', hp, asked);
  s.run((sheet === null ? add : addThen(add, (characterId) => ({ ...sheet, characterId }) as ClientCommand)) as unknown as Command);
  return Object.values(s.world.characters).find((c) => c.name === name)!.id;
}

describe('the invite makes the sheet (review 12 #1)', () => {
  it('teams asks for endurance, stamina and constitution, each with its meaning', () => {
    expect(inviteNeedsOf('teams').map((q) => q.key)).toEqual(['maxEndurance', 'maxStamina', 'constitution', 'evasion']);
    expect(inviteNeedsOf('teams').find((q) => q.key === 'constitution')!.why).toMatch(/missing.*unconscious/);
  });

  it('teams: the invited PC has a sheet at once, with health, endurance, stamina and constitution typed, all full', () => {
    const s = table('teams');
    const kira = invite(s, 'Kira', 10, { maxEndurance: 6, maxStamina: 4, constitution: 3 });
    expect(sheets(s, 'teams')[kira]).toMatchObject({ name: 'Kira', characterId: kira, maxHealth: 10, health: 10, maxEndurance: 6, endurance: 6, maxStamina: 4, stamina: 4, constitution: 3 });
  });

  it('teams: one Undo takes back the character and its sheet', () => {
    const s = table('teams');
    const kira = invite(s, 'Kira', 12, { maxEndurance: 8, maxStamina: 2, constitution: 4 });
    s.run({ type: 'history.undo' });
    expect(s.world.characters[kira]).toBeUndefined();
    expect(sheets(s, 'teams')[kira]).toBeUndefined();
  });

  it('the 36th Way keeps its HP on its sheet as before; Daggerheart and the others make none', () => {
    expect(inviteSheetCommand('36th-way', 'c1', 24)).toEqual({ type: 'character.sheet.set', characterId: 'c1', sheet: { maxHp: 24, hp: 24 } });
    const s = table('36th-way');
    const kira = invite(s, 'Kira', 24, {});
    expect(Object.values(sheets(s, '36th-way')).find((x) => x['characterId'] === kira)).toMatchObject({ maxHp: 24, hp: 24 });
    for (const id of ['daggerheart', 'osr', 'kleptonomicon']) expect(inviteSheetCommand(id, 'c1', 10, { evasion: 10 }), id).toBeNull();
  });

  it('teams with no HP typed: the sheet still carries what was asked', () => {
    expect(inviteSheetCommand('teams', 'c1', null, { maxEndurance: 5, maxStamina: 1, constitution: 2 })).toEqual({ type: 'character.sheet.set', characterId: 'c1', sheet: { maxEndurance: 5, maxStamina: 1, constitution: 2 } });
  });
});
