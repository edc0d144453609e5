// Review 13 #15, the words on screen, in real Chromium: a seat removed while
// its phone is open leaves only the removal message (not the frozen fight and
// "no character yet"); "Take with Fear" is off at 0 Fear and says why; a
// bestiary file for other rules names both rules by name; the 36th Way
// phone's sheet shows no "Kind pc" and says a basic attack's miss in words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { night, screen, startE2e } from './actions-flow.ts';
import { osrKiraAgainst, tswKiraAndOrc } from './fixtures.ts';
import type { E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('words-review13');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator): Promise<string> => ((await l.textContent()) ?? '').replace(/\s+/g, ' ').trim();

describe('review 13 words', () => {
  it('a removed seat\'s open phone shows the removal alone, not the fight it was watching', async () => {
    const { annSeat, gmSock } = await osrKiraAgainst(e2e!, 'Seat night', { name: 'Goblin', stats: { dex: 8, hp: 5, maxHp: 5 } });
    const ann = await screen(e2e!.browser, contexts, annSeat.link, true);
    await expect.poll(() => ann.p.getByTestId('combatant').count()).toBe(2);
    await gmSock.command({ type: 'seat.remove', seatId: annSeat.seatId });
    await expect.poll(() => text(ann.p.getByTestId('link-problem'))).toContain('The GM removed this seat; its link no longer works.');
    expect(await ann.p.getByTestId('combatant').count()).toBe(0);
    expect(await ann.p.getByTestId('turn-timer').count()).toBe(0);
    expect(await ann.p.locator('main').textContent()).not.toContain('has not given this seat a character');
    expect(await axeViolations(ann.p)).toEqual([]);
  });

  it('Daggerheart: "Take with Fear" is off at 0 Fear, saying why, and on again with 1 Fear', async () => {
    const n = await night(e2e!, 'daggerheart', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId, stats: { evasion: 10 } });
    await n.gmSock.command({ type: 'daggerheart.addAdversaries', name: 'Imp', count: 1, difficulty: 11, major: 4, severe: 8, hp: 3, attack: 1, damage: '1d6', visibility: 'visible' });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const spot = gm.p.getByTestId('daggerheart-gm').getByTestId('spotlight');
    await spot.getByRole('button', { name: 'Start a conflict (2)' }).click();
    const fear = async () => Number((await text(gm.p.getByTestId('fear-value'))).split('/')[0]);
    const now = await fear();
    if (now > 0) await n.gmSock.command({ type: 'daggerheart.spendFear', amount: now });
    await expect.poll(fear).toBe(0);
    const take = spot.getByRole('button', { name: 'Take with Fear: Imp' });
    await expect.poll(() => take.isDisabled()).toBe(true);
    const why = await take.getAttribute('aria-describedby');
    expect(await text(gm.p.locator(`#${why}`))).toBe('The GM has 0 Fear: taking the spotlight for an adversary costs 1.');
    await n.gmSock.command({ type: 'daggerheart.gainFear', amount: 1 });
    await expect.poll(() => take.isDisabled()).toBe(false);
    expect(await spot.getByTestId('no-fear').count()).toBe(0);
    await take.click();
    await expect.poll(() => text(spot.getByTestId('spotlight-holder'))).toBe('Imp');
    expect(await axeViolations(gm.p)).toEqual([]);
    expect(gm.errors).toEqual([]);
  });

  it('a bestiary file for other rules is refused naming both rules, not their ids', async () => {
    const n = await night(e2e!, 'osr', 'Ann');
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const best = gm.p.getByTestId('bestiary');
    const file = JSON.stringify({ format: 'tablekeeper-bestiary', version: 1, rulesetId: 'daggerheart', entries: [] });
    await best.getByLabel('Import a bestiary file').setInputFiles({ name: 'bestiary-daggerheart.json', mimeType: 'application/json', buffer: Buffer.from(file) });
    await expect.poll(() => text(best.getByTestId('bestiary-note'))).toBe('The file holds stat blocks for Daggerheart; this table plays OSR.');
    expect(gm.errors).toEqual([]);
  });

  it("the 36th Way phone's sheet shows no \"Kind pc\" and says a basic attack's miss in words", async () => {
    const n = await night(e2e!, '36th-way', 'Ann');
    await tswKiraAndOrc(n);
    const phone = await screen(e2e!.browser, contexts, n.links.seat, true);
    await phone.p.getByTestId('my-character').waitFor();
    await phone.p.locator('details.my-sheet > summary').click();
    const kept = phone.p.getByTestId('phone-sheet-kept');
    await expect.poll(() => text(kept)).toMatch(/^Kept by the GM and the rules/);
    const line = await text(kept);
    expect(line).not.toMatch(/\bKind\b|\bpc\b/);
    expect(line).toMatch(/: no damage\b/);
    expect(line).not.toMatch(/\bnone\b/);
    expect(line).toContain('AC: 12');
    expect(await axeViolations(phone.p)).toEqual([]);
    expect(phone.errors).toEqual([]);
  });
});
