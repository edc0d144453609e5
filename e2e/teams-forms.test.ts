// Teams actions that used to spend without an effect or need JSON, played by
// clicking in real Chromium (003 Actions and Reactions tables, "Damage",
// "Death"; ADR 42): Short Task with its odds, a Killing Strike's odds (the
// GM's; a phone is not told a foe's constitution), Command, Ready an Action,
// and fortify-or-fall on the phone with Boudica's numbers from 003.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { night, oddsOf, openAction, roll, screen, startE2e, type Night } from './actions-flow.ts';
import type { E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('teams-forms');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const spear = { attributes: ['strength'], proficiencies: ['martial'], damage: 4, criticalDamage: 8, criticalThreshold: 19, damageType: 'piercing' };

/** Boudica (Ann's, as 003 describes her), Petra beside her, an unconscious Guard; Boudica's turn. */
async function boudicasTurn(): Promise<Night> {
  const n = await night(e2e!, 'teams', 'Ann');
  await n.gmSock.command({ type: 'character.add', name: 'Boudica', kind: 'pc', seatId: n.seatId });
  await n.gmSock.command({
    type: 'encounter.start',
    combatants: [
      { id: 'boudica', kind: 'pc', side: 'players', characterId: n.idOf('Boudica') },
      { id: 'petra', kind: 'pc', side: 'players' },
      { id: 'guard', kind: 'npc', side: 'guards' },
    ],
    params: { teamOrder: ['players', 'guards'] },
  });
  // Sheets address creatures: Petra and the Guard are ones once the fight adds them; Boudica's is kept under the combatant playing her.
  await n.gmSock.command({
    type: 'character.sheet.set',
    characterId: n.idOf('Boudica'),
    sheet: { attributes: { strength: 6 }, skills: { combat: 6, athletics: 4 }, proficiencies: { martial: 1, fortitude: 1 }, evasion: 5, constitution: 4, maxEndurance: 12, maxHealth: 12, maxStamina: 4, maxFocus: 2, items: { spear: { name: 'spear', weapon: spear } }, wielded: ['spear'] },
  });
  await n.gmSock.command({ type: 'character.sheet.set', characterId: 'petra', sheet: { name: 'Petra', attributes: { dexterity: 6 }, skills: { combat: 6 }, maxHealth: 8 } });
  await n.gmSock.command({ type: 'character.sheet.set', characterId: 'guard', sheet: { name: 'Guard', attributes: { strength: 6 }, skills: { combat: 6 }, constitution: 3, maxHealth: 8, health: 0, conscious: false } });
  const enc = () => n.gmSock.view().world.ext['encounter'] as unknown as { current: string | null; pending: { options: string[] } | null };
  if (enc().current !== 'boudica') await n.gmSock.command({ type: 'encounter.choose', id: 'boudica' });
  return n;
}

describe('teams forms for the action table', () => {
  it('Short Task rolls a test the phone chose, odds first; a Killing Strike shows the GM its odds and keeps the constitution from the phone', async () => {
    const n = await boudicasTurn();
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);

    // The phone may not reckon with a foe's constitution (ADR 33): the form says so instead of odds.
    const phoneStrike = await openAction(ann.p, 'Killing Strike');
    expect(await phoneStrike.getByLabel('Target').locator('option').allTextContents()).toEqual(['Guard']);
    await expect.poll(() => phoneStrike.getByTestId('action-odds').textContent()).toContain("keeps Guard's constitution secret");
    // The GM's: strength d6 + combat d6 with advantage against constitution 3, the luck die's +4 on a 20: 1 - 19/20 x (1/36)^2.
    const gmStrike = await openAction(gm.p, 'Killing Strike');
    await oddsOf(gmStrike, '99.9% to kill');

    const task = await openAction(ann.p, 'Short Task');
    await task.getByLabel('Task').fill('pick the lock');
    await task.getByLabel('Skill').selectOption('athletics');
    await task.getByLabel('Proficiency').selectOption('');
    await task.getByLabel('Difficulty').fill('10');
    // d6 + d4 >= 10 only on (6, 4), 1 of 24; a luck 20 adds 4 and then 6+ does, 14 of 24: 19/20 x 1/24 + 1/20 x 14/24 = 6.9%.
    await oddsOf(task, '6.9% to succeed');
    const result = await roll(task, 'Roll: Short Task');
    expect(result).toMatch(/Boudica: pick the lock \d+ against 10, (success|failure)\./);
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toContain('Boudica: pick the lock');
    expect(await axeViolations(ann.p)).toEqual([]);
    expect(gm.errors).toEqual([]);
    expect(ann.errors).toEqual([]);
  });

  it('Command gives Petra an action, Ready an Action ends the turn, and a hard blow asks the phone to fortify (003: missing 5 past constitution 4)', async () => {
    const n = await boudicasTurn();
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);

    const command = await openAction(ann.p, 'Command');
    expect(await command.getByLabel('Target').locator('option').allTextContents()).toEqual(['Petra']);
    await roll(command, 'Command');
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toContain('Boudica commanded Petra, who may take one action now.');

    const ready = await openAction(ann.p, 'Ready an Action');
    await ready.getByLabel('Readied action').selectOption('Attack');
    await ready.getByLabel('Trigger').fill('the guard stands up');
    await ready.getByRole('button', { name: 'Ready an Action', exact: true }).click();
    const readied = () => (n.gmSock.view().world.ext['encounter'] as unknown as { combatants: { [k: string]: { readied: { action: string; trigger: string } | null } } }).combatants['boudica']!.readied;
    await expect.poll(readied).toEqual(expect.objectContaining({ action: 'Attack', trigger: 'the guard stands up' }));

    // 7 then 10 damage (003 "Damage"): endurance 0, health 7, missing 5 past constitution 4.
    await n.gmSock.command({ type: 'teams.damage', targetId: 'boudica', amount: 7, reduce: false });
    await n.gmSock.command({ type: 'teams.damage', targetId: 'boudica', amount: 10, reduce: false });
    const prompt = ann.p.getByTestId('reaction-prompt');
    await expect.poll(() => prompt.textContent()).toContain('Boudica is losing consciousness: fortify against 5 or fall unconscious.');
    await prompt.getByRole('radio', { name: /^Fortify \(/ }).check();
    const form = prompt.getByTestId('action-form');
    await form.getByLabel('Skill').selectOption('athletics');
    await form.getByLabel('Proficiency').selectOption('fortitude');
    // Strength d6 + athletics d4 + fortitude 1 against 5: 19/20 x 21/24 + 1/20 = 141/160.
    await oddsOf(form, '88.1% to succeed');
    await form.getByRole('button', { name: 'Roll: Fortify', exact: true }).click();
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toMatch(/Boudica fortified: \d+ against 5, (stays conscious|fails)\./);
    await expect.poll(() => ann.p.getByTestId('reaction-prompt').count()).toBe(0);
    expect(gm.errors).toEqual([]);
    expect(ann.errors).toEqual([]);
  });
});
