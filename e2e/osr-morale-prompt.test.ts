// Review 7's OSR morale prompt, in real Chromium by clicking (ADR 55): the
// GM-only "Morale?" prompt's button opens the morale form for the prompt's
// side instead of rolling at once (001 "Morale Checks": d20 + WIS + the
// monster's morale bonus vs DC 11, advantage by the circumstances "such as
// being outnumbered"; "Side, Group, or Individual"). When the party is
// losing, its retainer is the one ticked, not the goblins.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { night, oddsOf, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('osr-morale-prompt');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator) => ((await l.textContent()) ?? '').replace(/\s+/g, ' ').trim();

describe('OSR: the morale prompt opens the morale form (ADR 55)', () => {
  it("the battle's prompt opens the foes' form with odds and a reason for advantage; a prompt for the losing party ticks its retainer Hob", async () => {
    const n = await night(e2e!, 'osr', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId, stats: { maxHp: 9, hp: 9, dex: 14, ac: 12, wis: 10 } });
    await n.gmSock.command({ type: 'character.add', name: 'Hob', kind: 'npc', seatId: n.seatId, stats: { maxHp: 4, hp: 4, dex: 9, ac: 10, wis: 8 } });
    for (const g of ['Goblin 1', 'Goblin 2']) await n.gmSock.command({ type: 'character.add', name: g, kind: 'npc', stats: { maxHp: 5, hp: 5, dex: 8, ac: 10, wis: 12, moraleBonus: 2 } });
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { name: 'Kira', kind: 'pc', side: 'party', characterId: n.idOf('Kira') },
        { name: 'Hob', kind: 'npc', side: 'party', characterId: n.idOf('Hob') },
        { name: 'Goblin 1', kind: 'npc', side: 'foes', characterId: n.idOf('Goblin 1') },
        { name: 'Goblin 2', kind: 'npc', side: 'foes', characterId: n.idOf('Goblin 2') },
      ],
    });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const prompt = gm.p.getByTestId('morale-prompt');
    await expect.poll(() => text(prompt)).toContain('the battle begins: call for morale checks?');

    // The button opens the form; nothing is rolled yet.
    await prompt.getByRole('button', { name: 'Check morale for the foes (2)' }).click();
    const form = prompt.getByTestId('action-form');
    await expect.poll(() => form.getByLabel('Target').inputValue()).toBe(n.idOf('Goblin 1'));
    expect(await form.getByTestId('action-more-targets').getByLabel('Goblin 2').isChecked()).toBe(true);
    expect(await form.getByRole('checkbox', { name: /Kira/ }).isChecked()).toBe(false);
    expect(await text(gm.p.getByTestId('log'))).not.toMatch(/Morale for the foes/);
    // Outnumbered: advantage 1. d20 +1 WIS +2 morale bonus vs DC 11 needs an 8: 1 - (7/20)^2 = 87.75%.
    await form.getByLabel('Advantage (net sources; negative for disadvantage)').fill('1');
    await form.getByLabel('Why the advantage (e.g. outnumbered)').fill('outnumbered');
    await expect.poll(() => text(form.getByTestId('action-odds'))).toMatch(/^Goblin 1: 87\.8% to stand and fight ?d20 \+1 WIS \+2 morale bonus vs DC 11/);
    await form.getByRole('button', { name: 'Roll: Morale check', exact: true }).click();
    await expect.poll(() => text(form.getByTestId('action-result'))).toMatch(/^Morale for the foes, Goblin 1 rolling for 2 \(the battle begins: call for morale checks\?\): .* vs 11 \(outnumbered\): they (stand and fight|surrender or flee)\./);

    // Kira falls, the first of the fight: morale for the party. Its form ticks Hob, the party's retainer, not the goblins.
    await n.gmSock.command({ type: 'osr.damage', targetId: n.idOf('Kira'), amount: 9 });
    await expect.poll(() => text(prompt)).toContain('Kira is the first to fall in this fight: morale for the party?');
    await prompt.getByRole('button', { name: 'Check morale for the party (1)' }).click();
    const partyForm = prompt.getByTestId('action-form');
    await expect.poll(() => partyForm.getByLabel('Target').inputValue()).toBe(n.idOf('Hob'));
    expect(await partyForm.getByLabel('Target').locator('option').allTextContents()).toEqual(['Hob', 'Goblin 1', 'Goblin 2']);
    for (const g of ['Goblin 1', 'Goblin 2']) expect(await partyForm.getByTestId('action-more-targets').getByLabel(g).isChecked()).toBe(false);
    // Hob: WIS 8 (-1), no morale bonus: a d20 of 12 or more, 9 faces of 20.
    await oddsOf(partyForm, '45% to stand and fight');

    expect(await axeViolations(gm.p)).toEqual([]);
    expect(gm.errors).toEqual([]);
  });
});
