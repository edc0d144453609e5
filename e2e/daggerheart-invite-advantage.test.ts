// Review 12 #14 in Chromium, Daggerheart: the Invite asks the damage thresholds (Major / Severe, in the
// sheet's limits), so an invited Kira takes a hit at once; the adversary's Attack picks advantage in words,
// as the GM's Ask for a roll does, with the odds redone before the roll: +1 against Evasion 10 needs a
// natural 9, 12 of 20 (60%, 5% critical); with advantage the higher of two d20, 1 - (8/20)^2 = 84%,
// critical 1 - (19/20)^2 = 9.75%; with disadvantage the lower, (12/20)^2 = 36%, critical (1/20)^2 = 0.25%.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { oddsOf, openAction, roll, screen } from './actions-flow.ts';
import { startE2e, type E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('dh-invite-advantage');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator): Promise<string> => (await l.textContent()) ?? '';

describe('Daggerheart: thresholds at the invite, advantage in words on an adversary attack', () => {
  it('Kira invited with thresholds 5/10 takes the Bandit\'s hit at once; the Advantage picker moves the odds 60% -> 84% -> 36% before the roll', async () => {
    const t = await e2e!.table('daggerheart', 'Advantage night');
    const gmSock = await e2e!.socket(t.gmToken);
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);

    const invite = gm.p.locator('.area-invite');
    await invite.getByLabel('Player name').fill('Ann');
    await invite.getByRole('button', { name: 'Add player seat' }).click();
    await invite.getByLabel('Character name for Ann').fill('Kira');
    await invite.getByLabel('Hit points').fill('6');
    await invite.getByLabel("Evasion for Ann's character").fill('10');
    // Out of the sheet's range: said in words, with what it does, before anything is sent.
    await invite.getByLabel("Major threshold for Ann's character").fill('0');
    await invite.getByLabel("Severe threshold for Ann's character").fill('10');
    await invite.getByRole('button', { name: 'Add character' }).click();
    await expect.poll(() => text(invite.getByRole('alert'))).toBe('Kira needs a Major threshold, a whole number from 1 to 200: damage at or above it marks 2 HP (below it, 1).');
    await invite.getByLabel("Major threshold for Ann's character").fill('5');
    await invite.getByRole('button', { name: 'Add character' }).click();
    await invite.getByText('Kira', { exact: true }).waitFor();
    const kira = Object.values(gmSock.view().world.characters).find((c) => c.name === 'Kira')!;
    expect(kira.stats).toMatchObject({ hpMax: 6, evasion: 10, major: 5, severe: 10 });
    const ann = await screen(e2e!.browser, contexts, await invite.getByTestId('seat-link').inputValue(), true);
    // Nothing left to fill before Kira can be hurt.
    expect(await gm.p.getByTestId('party-trackers').getByRole('form', { name: 'Damage thresholds for Kira' }).count()).toBe(0);

    await gmSock.command({ type: 'daggerheart.addAdversaries', name: 'Bandit', count: 1, difficulty: 12, major: 6, severe: 11, hp: 4, attack: 1, damage: '1d8+2', visibility: 'visible' });
    const spot = gm.p.getByTestId('spotlight');
    await spot.getByRole('button', { name: 'Start a conflict (2)' }).click();
    await spot.getByRole('button', { name: 'Spotlight Bandit' }).click();
    await expect.poll(() => text(spot.getByTestId('spotlight-holder'))).toBe('Bandit');

    const attack = await openAction(gm.p, 'Attack');
    const advantage = attack.getByLabel('Advantage');
    // A picker in words, as the GM's Ask for a roll has it; no number box.
    expect(await advantage.evaluate((el) => el.tagName)).toBe('SELECT');
    expect(await advantage.locator('option').allTextContents()).toEqual(['none', 'advantage (two d20, the higher)', 'disadvantage (two d20, the lower)']);
    await oddsOf(attack, '60% to hit · 5% critical');
    await advantage.selectOption({ label: 'advantage (two d20, the higher)' });
    await oddsOf(attack, '84% to hit · 9.8% critical');
    await advantage.selectOption({ label: 'disadvantage (two d20, the lower)' });
    await oddsOf(attack, '36% to hit · 0.3% critical');
    await advantage.selectOption({ label: 'advantage (two d20, the higher)' });
    await oddsOf(attack, '84% to hit · 9.8% critical');

    // Rolled with advantage until it hits (a miss is undone): the hit lands on Kira through the thresholds she was invited with.
    let result = '';
    for (let i = 0; i < 12; i++) {
      result = await roll(attack, 'Roll: Attack');
      if (!/a miss/.test(result)) break;
      await gmSock.command({ type: 'history.undo' });
      await attack.getByRole('button', { name: 'Again', exact: true }).click();
      await oddsOf(attack, '84% to hit · 9.8% critical');
    }
    const dealt = Number(/= (\d+) damage/.exec(result)?.[1]);
    expect(dealt, result).toBeGreaterThanOrEqual(3);
    const marks = dealt >= 10 ? 3 : dealt >= 5 ? 2 : 1;
    await expect.poll(() => gmSock.view().world.characters[kira.id]!.stats['hpMarked']).toBe(marks);
    const event = gmSock.view().history.flatMap((tx) => tx.events).filter((e) => e.type === 'daggerheart.adversaryAttacked').at(-1)!;
    expect(event['advantage']).toBe(1);
    await expect.poll(() => text(ann.p.getByTestId('log'))).toContain(`(thresholds 5/10), marks ${marks} HP.`);
    expect(await text(gm.p.getByTestId('log'))).not.toContain('needs damage thresholds');

    expect(await axeViolations(gm.p)).toEqual([]);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });
});
