// Issue 20's owed controls in real Chromium: each command the guard
// (e2e/reachable-lib.test.ts) listed as unreached gets one small control, and
// here each is clicked once, checking what the GM and a player see after.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { screen, startE2e } from './actions-flow.ts';
import { daggerheartSeat, osrFight, type E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('owed-controls');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

describe('owed controls (issue 20)', () => {
  it('the GM posts a note for everyone and one for the GM only, and renames the table', async () => {
    const t = await e2e!.table('osr', 'Owed night');
    const seat = await e2e!.seat(t, 'Ann');
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, seat.link, true);

    const log = gm.p.locator('.area-log');
    await log.getByLabel('Note for the log').fill('The bridge is out.');
    await log.getByRole('button', { name: 'Post note' }).click();
    await log.getByLabel('Note for the log').fill('The innkeeper is the thief.');
    await log.getByLabel('Who reads the note').selectOption({ label: 'GM only' });
    await log.getByRole('button', { name: 'Post note' }).click();
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toContain('The innkeeper is the thief.');
    expect(await gm.p.getByTestId('log').locator('li', { hasText: 'The innkeeper is the thief.' }).textContent()).toContain('GM only');
    // The box empties once the note is in, ready for the next.
    expect(await log.getByLabel('Note for the log').inputValue()).toBe('');
    await expect.poll(() => ann.p.getByTestId('log').textContent()).toContain('The bridge is out.');
    expect(await ann.p.getByTestId('log').textContent()).not.toContain('innkeeper');
    expect(ann.frames.join('\n')).not.toContain('innkeeper');

    await gm.p.getByTestId('gm-settings').locator(':scope > summary').click();
    await gm.p.getByLabel('Table name').fill('The Sunken Keep');
    await gm.p.getByRole('button', { name: 'Rename table' }).click();
    await expect.poll(() => gm.p.getByTestId('table-name').textContent()).toBe('The Sunken Keep');
    await expect.poll(() => ann.p.getByTestId('table-name').textContent()).toBe('The Sunken Keep');

    expect(await axeViolations(gm.p)).toEqual([]);

    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });

  it('the GM renames a seat, removes a character after confirming, and removes a seat', async () => {
    const t = await e2e!.table('osr', 'Seats night');
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const invite = gm.p.locator('.area-invite');
    for (const player of ['Ann', 'Bo']) {
      await invite.getByLabel('Player name').fill(player);
      await invite.getByRole('button', { name: 'Add player seat' }).click();
      await invite.getByLabel(`Character name for ${player}`).waitFor();
    }
    await invite.getByLabel('Character name for Ann').fill('Kira');
    await invite.getByLabel('Hit points').first().fill('8');
    await invite.getByRole('button', { name: 'Add character' }).first().click();
    await invite.getByText('Kira', { exact: true }).waitFor();
    const annLink = await invite.getByTestId('seat-link').first().inputValue();
    const ann = await screen(e2e!.browser, contexts, annLink, true);

    await invite.getByText("Change Ann's seat").click();
    await invite.getByLabel("New name for Ann's seat").fill('Annika');
    await invite.getByRole('button', { name: 'Rename seat' }).click();
    await invite.getByText("Change Annika's seat").waitFor();
    await expect.poll(() => ann.p.locator('.topbar').textContent()).toContain('Annika');

    // A removal asks first; "Keep" sends nothing.
    await invite.getByRole('button', { name: 'Remove Kira' }).click();
    await invite.getByRole('button', { name: 'Keep Kira' }).click();
    expect(Object.values((await e2e!.socket(t.gmToken)).view().world.characters).map((c) => c.name)).toEqual(['Kira']);
    await invite.getByRole('button', { name: 'Remove Kira' }).click();
    await invite.getByRole('button', { name: 'Yes, remove Kira' }).click();
    await invite.getByText('no character yet').first().waitFor();
    await expect.poll(async () => Object.keys((await e2e!.socket(t.gmToken)).view().world.characters).length).toBe(0);

    await invite.getByText("Change Bo's seat").click();
    await invite.getByRole('button', { name: "Remove Bo's seat" }).click();
    await invite.getByRole('button', { name: "Yes, remove Bo's seat" }).click();
    await expect.poll(() => invite.getByLabel('Player seats').locator(':scope > li').count()).toBe(1);
    await expect.poll(async () => Object.values((await e2e!.socket(t.gmToken)).view().world.seats).map((s) => s.name)).toEqual(['Annika']);

    expect(await axeViolations(gm.p)).toEqual([]);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });

  it('the GM removes a foe from the fight after confirming; the phone stops seeing it', async () => {
    const { t, seat } = await osrFight(e2e!, 'Remove night', [
      { name: 'Goblin', kind: 'npc', side: 'foes', dex: 8, hp: 5 },
      { name: 'Rat', kind: 'npc', side: 'foes', dex: 6, hp: 2 },
    ]);
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, seat.link, true);
    const rows = (s: typeof ann) => s.p.getByTestId('combatant').allTextContents();
    await expect.poll(async () => (await rows(ann)).some((r) => r.includes('Rat'))).toBe(true);
    await gm.p.getByText('Adjust Rat', { exact: true }).click();
    await gm.p.getByRole('button', { name: 'Remove Rat from the fight' }).click();
    await gm.p.getByRole('button', { name: 'Yes, remove Rat' }).click();
    await expect.poll(() => gm.p.locator('[data-adjust]').count()).toBe(2);
    await expect.poll(async () => (await rows(ann)).some((r) => r.includes('Rat'))).toBe(false);
    expect((await rows(ann)).length).toBe(2);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });

  it('the GM pauses and resumes a countdown, ticks it back and sets it by hand; the phone follows', async () => {
    const { t, seat, gmSock } = await osrFight(e2e!, 'Countdown night');
    await gmSock.command({ type: 'countdown.create', name: 'The bridge falls', start: 4 });
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, seat.link, true);
    const left = (s: typeof gm) => s.p.getByRole('meter', { name: /^The bridge falls:/ }).getAttribute('aria-valuenow');
    const row = (s: typeof gm) => s.p.getByTestId('countdown').filter({ hasText: 'The bridge falls' });
    await expect.poll(() => left(ann)).toBe('4');

    await gm.p.getByRole('button', { name: 'Pause The bridge falls' }).click();
    await expect.poll(() => row(ann).textContent()).toContain('paused');
    await gm.p.getByRole('button', { name: 'Resume The bridge falls' }).click();
    await expect.poll(() => row(ann).textContent()).not.toContain('paused');

    await gm.p.getByRole('button', { name: 'Tick The bridge falls down by one' }).click();
    await expect.poll(() => left(gm)).toBe('3');
    await gm.p.getByRole('button', { name: 'Untick The bridge falls: one tick back' }).click();
    await expect.poll(() => left(ann)).toBe('4');

    await gm.p.getByLabel('New value of The bridge falls').fill('2');
    await gm.p.getByRole('button', { name: 'Set The bridge falls to this value' }).click();
    await expect.poll(() => left(ann)).toBe('2');

    expect(await axeViolations(gm.p)).toEqual([]);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });

  it('the Daggerheart GM gives a PC Hope; the phone shows it', async () => {
    const { t, seat } = await daggerheartSeat(e2e!, 'Hope night');
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, seat.link, true);
    const hope = (s: typeof gm) => s.p.getByRole('meter', { name: 'Kira Hope' }).first().getAttribute('aria-valuenow');
    const before = Number(await hope(gm));
    await gm.p.getByRole('button', { name: 'Give Hope to Kira' }).click();
    await expect.poll(async () => Number(await hope(gm))).toBe(before + 1);
    await expect.poll(async () => Number(await hope(ann))).toBe(before + 1);
    await expect.poll(() => ann.p.getByTestId('log').textContent()).toContain(`Kira gains Hope (${before} -> ${before + 1}).`);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });

  it("a player posts a note for everyone and one for their seat only; another player reads only the first", async () => {
    const { t, seat } = await osrFight(e2e!, 'Player notes night');
    const bo = await e2e!.seat(t, 'Bo');
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, seat.link, true);
    const boPhone = await screen(e2e!.browser, contexts, bo.link, true);
    const ask = ann.p.getByTestId('ask-gm');
    await ask.getByLabel('Note for the log').fill('Kira marks the door with chalk.');
    await ask.getByRole('button', { name: 'Post note' }).click();
    await ask.getByLabel('Note for the log').fill('Kira pockets the ruby.');
    await ask.getByLabel('Who reads the note').selectOption({ label: 'Me and the GM' });
    await ask.getByRole('button', { name: 'Post note' }).click();
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toContain('Kira pockets the ruby.');
    await expect.poll(() => ann.p.getByTestId('log').textContent()).toContain('Kira pockets the ruby.');
    await expect.poll(() => boPhone.p.getByTestId('log').textContent()).toContain('Kira marks the door with chalk.');
    expect(await boPhone.p.getByTestId('log').textContent()).not.toContain('ruby');
    expect(boPhone.frames.join('\n')).not.toContain('ruby');
    expect(await axeViolations(ann.p)).toEqual([]);
    expect([...gm.errors, ...ann.errors, ...boPhone.errors]).toEqual([]);
  });
});
