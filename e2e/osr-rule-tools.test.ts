// Issue 20 (review 11): OSR rules the engine knew and no screen reached, played
// in real Chromium by clicking. In a fight, Kira retreats through danger from
// her actions (the check's odds before the roll) and the GM lets her get away;
// her phone offers Retreat on her turn too. Between fights, the GM's "Party and
// characters" panel shares treasure, rolls a foe's loot and a chase (odds per
// runner), exposes Dorn to venom and cures it, and restores an ability; each
// result is read in the log in words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { night, oddsOf, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('osr-rule-tools');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator) => ((await l.textContent()) ?? '').replace(/\s+/g, ' ').trim();

async function table() {
  const n = await night(e2e!, 'osr', 'Ann');
  await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId, stats: { maxHp: 12, hp: 12, str: 12, dex: 14, con: 10, ac: 14 } });
  await n.gmSock.command({ type: 'character.add', name: 'Dorn', kind: 'pc', stats: { maxHp: 15, hp: 15, str: 16, dex: 10, con: 12, ac: 16 } });
  await n.gmSock.command({ type: 'character.add', name: 'Goblin 1', kind: 'npc', stats: { maxHp: 5, hp: 5, dex: 8, ac: 12, hd: 2 } });
  return n;
}

describe('OSR rules reachable by clicking (issue 20)', () => {
  it('in a fight: Kira retreats through danger with the odds shown (GM screen), her phone offers Retreat, and the GM lets her get away', async () => {
    const n = await table();
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { name: 'Kira', kind: 'pc', side: 'party', characterId: n.idOf('Kira') },
        { name: 'Dorn', kind: 'pc', side: 'party', characterId: n.idOf('Dorn') },
        { name: 'Goblin 1', kind: 'npc', side: 'foes', characterId: n.idOf('Goblin 1') },
      ],
    });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);
    // The phone: Kira's own turn lists both ways to retreat, with what they cost.
    const phoneActions = ann.p.getByTestId('actions-panel');
    await expect.poll(() => phoneActions.getByRole('button', { name: /^Retreat through danger \(a check\)/ }).count()).toBe(1);
    expect(await phoneActions.getByRole('button', { name: /^Retreat \(the whole turn/ }).count()).toBe(1);
    // The GM: DEX 14 (+2) against DC 11 passes on a d20 of 9 or more: 12 faces of 20.
    const panel = gm.p.getByTestId('actions-panel');
    await panel.getByRole('button', { name: /^Retreat through danger \(a check\)/ }).click();
    const form = panel.getByTestId('action-form');
    await oddsOf(form, '60% to succeed');
    expect(await text(form.getByTestId('action-odds'))).toContain('d20 +2 vs DC 11');
    await form.getByRole('button', { name: 'Roll: Retreat through danger (a check)', exact: true }).click();
    await expect.poll(() => form.getByTestId('action-result').count()).toBe(1);
    const result = await text(form.getByTestId('action-result'));
    expect(result).toMatch(/Kira tries to retreat/);
    // The retreat took her whole turn, whatever the roll; Dorn retreats with no check (one tap) on his.
    await gm.p.getByRole('button', { name: "End Kira's turn" }).first().click();
    await panel.getByRole('button', { name: /^Retreat \(the whole turn/ }).click();
    await panel.getByRole('button', { name: /^Let a retreating creature get away/ }).click();
    const away = panel.getByTestId('action-form');
    await expect.poll(() => away.locator('select').first().locator('option').allTextContents()).toContain('Dorn (retreating)');
    await away.locator('select').first().selectOption({ label: 'Dorn (retreating)' });
    await away.getByRole('button', { name: 'Let a retreating creature get away', exact: true }).click();
    // Dorn leaves the tracker (his form goes with him); the log says so.
    await expect.poll(() => text(gm.p.getByTestId('log'))).toContain('Dorn escapes the battle.');
    await expect.poll(() => gm.p.locator('[data-adjust]').count()).toBe(2);
  });

  it("between fights: the GM shares treasure, rolls a goblin's loot and a chase with each runner's odds, exposes Dorn to venom and cures it, and restores STR", async () => {
    const n = await table();
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const tools = gm.p.getByTestId('rule-tools');
    // Shut, the panel asks nothing; the GM opens it.
    await tools.getByTestId('rule-tools-body').locator('summary').click();
    const partyTools = tools.getByTestId('party-tools');
    const party = partyTools.getByRole('group', { name: "The party's rules" });
    const charTools = tools.getByTestId('character-tools');
    const log = gm.p.getByTestId('log');
    // Treasure: 101 gp between Kira and Dorn is 50 gp and 50 XP each (001 "Treasure": gold recovered is XP).
    await party.getByRole('button', { name: /^Share treasure/ }).click();
    let form = partyTools.getByTestId('action-form');
    await form.getByLabel('Gold pieces (gp)').fill('101');
    await form.getByRole('button', { name: 'Share treasure', exact: true }).click();
    await expect.poll(() => text(log)).toContain('101 gp shared by Kira and Dorn, 50 each (+50 XP each), into their purses.');
    // Loot: the goblin's 2 HD are 2d20 gp.
    await party.getByRole('button', { name: /^Roll a foe's carried loot/ }).click();
    form = partyTools.getByTestId('action-form');
    await expect.poll(() => form.locator('select').first().locator('option').allTextContents()).toEqual([expect.stringContaining('Goblin 1')]);
    expect(await text(form.locator('select').first())).toContain('2 HD: 2d20 gp');
    await form.getByRole('button', { name: "Roll a foe's carried loot", exact: true }).click();
    await expect.poll(() => text(log)).toMatch(/Goblin 1's carried loot \(2 HD, 2d20\): \d+ gp\./);
    // A chase over uneven ground after a 40' quarry: DEX, DC 13; Kira (+2) 50%, Dorn (+0) 40%.
    await party.getByRole('button', { name: /^Chase/ }).click();
    form = partyTools.getByTestId('action-form');
    await form.getByLabel('Ground').selectOption('uneven');
    await form.getByLabel("The other side's speed (feet)").fill('40');
    await expect.poll(async () => (await form.getByTestId('action-odds-line').allTextContents()).map((s) => s.replace(/\s+/g, ' '))).toEqual([expect.stringContaining('50% to succeed'), expect.stringContaining('40% to succeed')]);
    // As one group (001 "Chases"): the worst modifier rolls for all, so one chance, Dorn's 40% (13+ on the d20: 8 in 20).
    await form.getByRole('checkbox', { name: /As one group/ }).check();
    await expect.poll(() => form.getByTestId('action-odds-line').count()).toBe(0);
    await expect.poll(() => text(form.getByTestId('action-odds'))).toContain('40% to succeed');
    expect(await text(form.getByTestId('action-odds'))).not.toContain('50%');
    await form.getByRole('button', { name: 'Roll: Chase', exact: true }).click();
    await expect.poll(() => form.getByTestId('action-result').count()).toBe(1);
    await expect.poll(() => text(log)).toMatch(/Dorn \(rolling for the group: Kira, Dorn\) gives chase \(DEX, DC 13\)/);
    // A character: Dorn resists venom with CON 12 (+1) at DC 11: 55%.
    await tools.getByLabel('Character').selectOption({ label: 'Dorn' });
    const mine = charTools.getByRole('group', { name: 'Rules for Dorn' });
    await mine.getByRole('button', { name: /^Expose to venom/ }).click();
    form = charTools.getByTestId('action-form');
    await oddsOf(form, '55% to succeed');
    // Roll until the venom takes hold (a pass leaves nothing to cure).
    for (let i = 0; i < 20; i++) {
      if (i > 0) await form.getByRole('button', { name: 'Again' }).click();
      await form.getByRole('button', { name: 'Roll: Expose to venom', exact: true }).click();
      await expect.poll(() => form.getByTestId('action-result').count()).toBe(1);
      if (!/pass/i.test(await text(form.getByTestId('action-result')))) break;
    }
    await mine.getByRole('button', { name: /^Cure a corruption/ }).click();
    form = charTools.getByTestId('action-form');
    await expect.poll(() => form.locator('select').first().locator('option').allTextContents()).toEqual(['venom (stage 1 of 3)']);
    await form.getByRole('button', { name: 'Cure a corruption', exact: true }).click();
    await expect.poll(() => text(log)).toMatch(/venom/i);
    await expect.poll(() => mine.getByRole('button', { name: /^Cure a corruption/ }).count()).toBe(0);
    // Restore ability: STR 16 back up by 2.
    await mine.getByRole('button', { name: /^Restore ability points/ }).click();
    form = charTools.getByTestId('action-form');
    await form.getByLabel('Ability').selectOption({ label: 'STR (now 16)' });
    await form.getByLabel('Points back').fill('2');
    await form.getByRole('button', { name: 'Restore ability points', exact: true }).click();
    await expect.poll(() => text(log)).toMatch(/Dorn[^.]*STR[^.]*18|Dorn[^.]*18/);
    // Resilience is not due yet, and says why.
    expect(await text(charTools.locator('details').last())).toMatch(/Resilience check: Dorn has been out 0 of 12 hours/);
  });

  it("the phone's attack targets mark a dying goblin and pick the standing one first (review 11)", async () => {
    const n = await table();
    await n.gmSock.command({ type: 'character.add', name: 'Goblin 2', kind: 'npc', stats: { maxHp: 5, hp: 5, dex: 8, ac: 12 } });
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { name: 'Kira', kind: 'pc', side: 'party', characterId: n.idOf('Kira') },
        { name: 'Goblin 1', kind: 'npc', side: 'foes', characterId: n.idOf('Goblin 1') },
        { name: 'Goblin 2', kind: 'npc', side: 'foes', characterId: n.idOf('Goblin 2') },
      ],
    });
    await n.gmSock.command({ type: 'osr.damage', targetId: n.idOf('Goblin 1'), amount: 5 });
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);
    const panel = ann.p.getByTestId('actions-panel');
    await panel.getByRole('button', { name: /^Attack \(/ }).click();
    const target = panel.getByTestId('action-form').getByLabel('Target');
    await expect.poll(async () => (await target.locator('option').allTextContents()).map((s) => s.trim())).toEqual(['Goblin 2', 'Goblin 1 (down)']);
    expect(await target.inputValue()).toBe(n.idOf('Goblin 2'));
  });
});
