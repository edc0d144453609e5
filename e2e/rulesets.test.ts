// The encounter tracker with the other turn orders, driven through the GM
// screen: 36th Way initiative bands with the escalation die, the team game's
// alternating team picks, and the Kleptonomicon's NPC groups with Beats.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { startE2e, whoStarts, type E2e, type MadeTable } from './harness.ts';
import { nowActing } from './web.ts';

let e2e: E2e | undefined;

beforeAll(async () => {
  e2e = await startE2e('rs');
});

afterAll(async () => {
  await e2e?.close();
});

async function gmScreen(rulesetId: string): Promise<{ page: Page; enc: Locator; errors: string[]; table: MadeTable }> {
  const table = await e2e!.table(rulesetId, rulesetId);
  const { p: page, errors } = await e2e!.open(table.links.gm, { width: 1280, height: 900 });
  return { page, enc: page.locator('.area-encounter'), errors, table };
}

async function add(enc: Locator, name: string, kind: 'pc' | 'npc', placement: string): Promise<void> {
  await enc.getByLabel('Name').fill(name);
  await enc.getByLabel('Kind').selectOption(kind);
  // Each ruleset's builder asks for its own initiative value: a band, a team, or a foe's creature type.
  const band = enc.getByLabel('Band');
  if ((await band.count()) > 0) await band.selectOption(placement);
  else if ((await enc.getByLabel('Team').count()) > 0) await enc.getByLabel('Team').fill(placement);
  else if (placement !== '') await enc.getByLabel('Creature type').fill(placement);
  await enc.getByRole('button', { name: 'Add to encounter' }).click();
  await enc.getByRole('list', { name: 'Combatants ready to start' }).getByText(name, { exact: true }).waitFor();
}

const acting = (enc: Locator) => nowActing(enc);

describe('encounter tracker across turn orders', () => {
  it('36th Way: bands order the turns and the escalation die rises with the round', async () => {
    const { page, enc, errors, table } = await gmScreen('36th-way');
    await add(enc, 'Vesk', 'pc', 'fast');
    await add(enc, 'Ogre', 'npc', 'slow');
    await enc.getByRole('button', { name: 'Roll initiative' }).click();
    await expect.poll(() => acting(enc)).toBe('Now acting: Vesk');
    expect(await enc.getByTestId('combatant').first().textContent()).toContain('fast');
    await expect.poll(() => enc.getByRole('img', { name: 'Escalation die 0' }).count()).toBe(1);
    await page.keyboard.press('n');
    await expect.poll(() => acting(enc)).toBe('Now acting: Ogre');
    await page.keyboard.press('n');
    // Round 2: the die shows 1 (002 "Escalation Die").
    await expect.poll(() => enc.getByTestId('round').textContent()).toBe('Round 2');
    await expect.poll(() => enc.getByRole('img', { name: 'Escalation die 1' }).count()).toBe(1);
    // The table display (a spectator link) asks the status query too (ADR 39): the same die.
    const spectator = await e2e!.post<{ link: string }>(`/api/tables/${table.tableId}/spectators`, {}, table.gmToken);
    const display = await e2e!.open(spectator.link, { width: 1280, height: 900 });
    await expect.poll(() => display.p.locator('.area-encounter').getByRole('img', { name: 'Escalation die 1' }).count()).toBe(1);
    expect(errors).toEqual([]);
    expect(display.errors).toEqual([]);
    await page.context().close();
  });

  it('team game: teams alternate and a team with two able members picks who acts', async () => {
    const { page, enc, errors } = await gmScreen('teams');
    await add(enc, 'Ash', 'pc', 'Heroes');
    await add(enc, 'Birch', 'pc', 'Heroes');
    await add(enc, 'Raider', 'npc', 'Raiders');
    await whoStarts(enc, 'Heroes');
    await enc.getByRole('button', { name: 'Roll initiative' }).click();
    // Heroes initiate (the GM says so); two of them may act, so the table chooses.
    await expect.poll(() => acting(enc)).toContain('Waiting');
    const choice = enc.getByRole('button', { name: 'Birch', exact: true });
    await choice.click();
    await expect.poll(() => acting(enc)).toBe('Now acting: Birch');
    // Three actions as pips for the actor (003 "Actions in Combat").
    await page.getByRole('img', { name: 'actions: 3 of 3 left' }).waitFor();
    await page.keyboard.press('n');
    await expect.poll(() => acting(enc)).toBe('Now acting: Raider');
    await page.keyboard.press('n');
    await expect.poll(() => acting(enc)).toBe('Now acting: Ash');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('Kleptonomicon: NPC groups from the form, and two Beats for the actor', async () => {
    const { page, enc, errors } = await gmScreen('kleptonomicon');
    await add(enc, 'Quill', 'pc', '');
    await add(enc, 'Guard', 'npc', 'Guards');
    await add(enc, 'Hound', 'npc', 'Hounds');
    // No Episode played yet: the fight may start now (ADR 81), and the builder offers the way through the phases (004).
    const gate = enc.getByTestId('encounter-gate');
    expect(await gate.textContent()).toContain('No Episode played yet: this fight may start now.');
    expect(await enc.getByRole('button', { name: 'Roll initiative' }).isDisabled()).toBe(false);
    await gate.getByRole('button', { name: 'Start an Episode' }).click();
    await expect.poll(() => gate.textContent()).toContain('Opening Credits: introduce the characters');
    await gate.getByRole('button', { name: 'Go to Freeplay' }).click();
    await expect.poll(() => gate.count()).toBe(0);
    await enc.getByRole('button', { name: 'Roll initiative' }).click();
    await expect.poll(() => enc.getByTestId('combatant').count()).toBe(3);
    await expect.poll(() => enc.getByTestId('combatant').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('group 1'), expect.stringContaining('group 2')]));
    // Whoever acts first has both Beats (004 "Using Abilities").
    await expect.poll(() => acting(enc)).toContain('Now acting');
    await page.getByRole('img', { name: 'beats: 2 of 2 left' }).waitFor();
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
