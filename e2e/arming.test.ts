// Review 12 #7 and #10 by clicking: the teams sheet editor says what an invited PC still lacks to attack and
// parry, and one weapon row arms her with the weapon in hand; her Attack is then offered, and Parry has the sword.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { night, openAction, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('arming');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

describe('teams: arming a PC from the sheet editor', () => {
  it('the lacks in words, then "Give the weapon" puts a sword in her hand and the dice she lacked', async () => {
    const n = await night(e2e!, 'teams', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId });
    const kira = n.idOf('Kira');
    // As the invite leaves her: tracks only, no weapon, no skill, Constitution not given.
    await n.gmSock.command({ type: 'character.sheet.set', characterId: kira, sheet: { maxHealth: 10, maxEndurance: 6, maxStamina: 4, evasion: 5 } });
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { id: kira, name: 'Kira', kind: 'pc', side: 'Party', team: 'Party', characterId: kira },
        { id: 'g1', name: 'Goblin 1', kind: 'npc', side: 'Goblins', team: 'Goblins' },
      ],
      params: { teamOrder: ['Party', 'Goblins'] },
    });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const editor = gm.p.getByTestId('sheet-editor');
    await editor.locator('summary').click();
    await editor.getByLabel('Sheet of').selectOption({ label: 'Kira' });
    const lacks = editor.getByTestId('arming-lacks');
    await expect.poll(() => lacks.locator('li').allTextContents()).toEqual([
      'To attack: a combat skill die (an attack rolls attribute + combat skill).',
      'To attack: a weapon (an item with a weapon, such as a sword).',
      'To parry or block: an item in hand (Wielded); only wielded items parry.',
      'Constitution 0: the first health lost means fortifying or falling unconscious.',
    ]);
    const row = editor.getByRole('form', { name: "A weapon in Kira's hand" });
    await row.getByLabel('Weapon').fill('sword');
    await row.getByLabel('rolls').selectOption('strength');
    await row.getByLabel('damage', { exact: true }).fill('5');
    await row.getByLabel('attribute die if none').selectOption('8');
    await row.getByRole('button', { name: 'Give the weapon' }).click();
    await expect.poll(() => editor.getByTestId('arming-note').textContent()).toBe('Kira has the sword in hand.');
    // Only the Constitution is left to say.
    await expect.poll(() => lacks.locator('li').allTextContents()).toEqual(['Constitution 0: the first health lost means fortifying or falling unconscious.']);
    const teams = () => (n.gmSock.view().world.ext['teams'] as { sheets: { [k: string]: { [k: string]: unknown } } }).sheets[kira];
    expect(teams()).toMatchObject({ wielded: ['sword'], skills: { combat: 6 }, attributes: { strength: 8 }, maxHealth: 10, maxEndurance: 6 });
    // Her Attack is offered now (no "Not now" reason for it).
    await expect.poll(() => gm.p.getByTestId('actions-panel').getByRole('button', { name: /^Attack \(/ }).count()).toBe(1);
    await expect.poll(() => editor.getByTestId('arming-weapons').textContent()).toBe('Weapons: sword (rolls strength, in hand). Give another below; the one in hand parries.');

    // A second weapon, rolling dexterity or strength (ticked, never typed), kept out of hand: both listed, the sword still the one held.
    await row.getByLabel('Weapon').fill('spear');
    await row.getByLabel('rolls').selectOption('dexterity');
    await row.getByRole('group', { name: 'Also usable with' }).getByLabel('strength').check();
    await row.getByRole('checkbox', { name: /in hand/ }).uncheck();
    await row.getByRole('button', { name: 'Give the weapon' }).click();
    await expect.poll(() => editor.getByTestId('arming-note').textContent()).toBe('Kira has the spear.');
    await expect.poll(() => editor.getByTestId('arming-weapons').textContent()).toBe('Weapons: sword (rolls strength, in hand), spear (rolls dexterity or strength). Give another below; the one in hand parries.');
    expect(teams()).toMatchObject({ wielded: ['sword'], items: { spear: { weapon: { attributes: ['dexterity', 'strength'] } } }, attributes: { strength: 8, dexterity: 8 } });
    // The full sheet form beside the row shows each weapon's attributes as the same ticks: the sword's strength, the spear's both.
    const rolls = editor.getByTestId('record-items').getByRole('group', { name: 'Attributes' });
    const ticked = (i: number) => rolls.nth(i).getByRole('checkbox', { checked: true }).evaluateAll((bs) => bs.map((b) => b.getAttribute('value')));
    await expect.poll(() => rolls.count()).toBe(2);
    await expect.poll(() => ticked(0)).toEqual(['strength']);
    await expect.poll(() => ticked(1)).toEqual(['strength', 'dexterity']);
    const attack = await openAction(gm.p, 'Attack');
    await expect.poll(() => attack.getByLabel('Weapon').locator('option').allTextContents()).toEqual(['sword (in hand)', 'spear (not in hand)']);
    expect(gm.errors).toEqual([]);
  }, 180_000);
});
