// The OSR exploration panel and the Kleptonomicon episode bar in real
// Chromium against a real table server: every roll shown is the server's
// (read back from the log line its reducer wrote), the travel calculator's
// figure is the one the server then travels by, and the episode phases walk
// through the bar with a player's phone following along.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { osr } from '@tablekeeper/rulesets';
import { artifactsDir } from './browser.ts';
import { startE2e, type E2e } from './harness.ts';
import { horizontalOverflow } from './web.ts';

let e2e: E2e | undefined;

beforeAll(async () => {
  e2e = await startE2e('explore');
  mkdirSync(artifactsDir, { recursive: true });
});

afterAll(async () => {
  await e2e?.close();
});

async function newTable(rulesetId: string): Promise<{ gm: string; tableId: string; token: string }> {
  const body = await e2e!.table(rulesetId, `${rulesetId} night`);
  return { gm: new URL(body.links.gm, e2e!.server.url).href, tableId: body.tableId, token: body.gmToken };
}

async function open(url: string, viewport: { width: number; height: number }, phone = false): Promise<{ page: Page; errors: string[] }> {
  const { p: page, errors } = await e2e!.open(url, viewport, { phone });
  return { page, errors };
}

const text = async (l: Locator): Promise<string> => (await l.textContent()) ?? '';
const group = (panel: Locator, name: string) => panel.getByRole('group', { name, exact: true });

describe('OSR clock and exploration panel', () => {
  it('travel turns, a torch on the clock, time dice, the travel calculator and rolling to return, all rolled by the server', async () => {
    const { gm: link } = await newTable('osr');
    const { page, errors } = await open(link, { width: 1440, height: 1000 });
    const ex = page.getByTestId('exploration');
    await ex.waitFor();

    // A PC to carry the torch and roll to return (Invite panel: a seat, then its character).
    await page.getByPlaceholder('Player name').fill('Alice');
    await page.getByRole('button', { name: 'Add player seat' }).click();
    await page.getByLabel('Character name for Alice').fill('Brannoc');
    await page.getByLabel('Hit points').fill('30');
    await page.getByRole('button', { name: 'Add character' }).click();
    await page.locator('.area-invite').getByText('Brannoc').waitFor();

    // The hour as time dice: a new table starts at midnight, four sixes (001 "Timekeeping").
    expect(await text(ex.getByTestId('explore-hour'))).toBe('00:00 · night');
    await ex.getByRole('img', { name: 'Time dice 6 and 6 and 6 and 6: 00:00, night' }).waitFor();

    // --- a travel turn: the hour passes and the GM sees the table's band for the server's d20.
    const turns = group(ex, 'Travel turns');
    await turns.getByRole('button', { name: 'Take a travel turn' }).click();
    const result = ex.getByTestId('travel-turn-result');
    await result.waitFor();
    const line = await text(result);
    const natural = Number(/→ (\d+),/.exec(line)?.[1]);
    expect(natural).toBeGreaterThanOrEqual(1);
    expect(natural).toBeLessThanOrEqual(20);
    const row = osr.travelTurnRow(natural);
    expect(line).toContain(`Travel turn 1: d20 ${natural} → ${natural}, ${row.band}`);
    expect(line).toContain(row.range[0] === row.range[1] ? `(${row.range[0]})` : `(${row.range[0]}-${row.range[1]})`);
    await expect.poll(() => text(ex.getByTestId('explore-hour'))).toBe('01:00 · pre-dawn');
    expect(await text(ex.getByTestId('turns-out'))).toContain('1 travel turn since safety');
    expect(await text(page.getByTestId('clock-time'))).toBe('Day 1, 01:00');

    // --- light a torch carried by Brannoc: an hour of fuel, then it burns down on the clock.
    const light = group(ex, 'Light');
    await light.getByLabel('Source').selectOption('torch');
    await light.getByLabel('Carried by').selectOption({ label: 'Brannoc' });
    await light.getByRole('button', { name: 'Light it' }).click();
    const torch = ex.getByTestId('light');
    await expect.poll(() => text(torch)).toContain('burning');
    expect(await text(torch)).toContain('Brannoc');
    expect(await text(torch.getByTestId('light-left'))).toBe('1 h left');
    await page.locator('.area-clock').getByRole('button', { name: '+10 min' }).click();
    await expect.poll(() => text(torch.getByTestId('light-left'))).toBe('50 min left');
    await torch.getByRole('button', { name: 'Put out torch' }).click();
    await expect.poll(() => text(torch)).toContain('out');
    await page.locator('.area-clock').getByRole('button', { name: '+10 min' }).click();
    // Doused, it keeps its fuel while the clock moves on.
    await expect.poll(() => text(page.getByTestId('clock-time'))).toBe('Day 1, 01:20');
    expect(await text(torch.getByTestId('light-left'))).toBe('50 min left');
    await torch.getByRole('button', { name: 'Relight torch' }).click();
    await expect.poll(() => text(torch)).toContain('burning');
    // A second travel turn (one more hour) and the server burns it out.
    await turns.getByRole('button', { name: 'Take a travel turn' }).click();
    await expect.poll(() => ex.getByTestId('light').count()).toBe(0);
    await page.getByTestId('log').getByText("Brannoc's torch has burned out.").waitFor();
    expect(await text(ex.getByTestId('turns-out'))).toContain('2 travel turns since safety');

    // --- time dice: two dice move the clock to the hour they show.
    const time = group(ex, 'Time');
    await time.getByRole('combobox', { name: 'Time dice' }).selectOption('2');
    await time.getByLabel('Use').selectOption('clock');
    await time.getByRole('button', { name: 'Roll time dice' }).click();
    const rolled = await (async () => {
      await ex.getByTestId('time-result').waitFor();
      return text(ex.getByTestId('time-result'));
    })();
    const m = /Time dice (\d), (\d): (\d\d):00, ([a-z-]+)\./.exec(rolled);
    expect(m, rolled).not.toBeNull();
    const hour = (Number(m![1]) + Number(m![2])) % 24;
    expect(Number(m![3])).toBe(hour);
    expect(m![4]).toBe(osr.quarterOf(hour));
    await expect.poll(() => text(ex.getByTestId('explore-hour'))).toBe(`${String(hour).padStart(2, '0')}:00 · ${osr.quarterOf(hour)}`);

    // --- the travel calculator: harsh terrain at a stealthy pace, 2 days; the server travels by the same figure.
    const travel = group(ex, 'Travel');
    await travel.getByLabel('Terrain').selectOption('harsh');
    await travel.getByLabel('Pace').selectOption('stealthy');
    await travel.getByLabel('Days').fill('2');
    const expected = osr.overlandMiles({ strMod: 0, terrain: 'harsh', pace: 'stealthy' });
    expect(expected).toBe(1.25);
    await expect.poll(() => text(ex.getByTestId('travel-preview'))).toContain('1.25 miles a day · 2.5 in 2 days · 2 travel turns');
    await travel.getByRole('button', { name: 'Travel 2 days' }).click();
    await ex.getByTestId('travel-result').waitFor();
    expect(await text(ex.getByTestId('travel-result'))).toContain('The party travels overland for 2 day(s): 1.25 miles a day, 2.5 in all.');
    expect(await text(ex.getByTestId('turns-out'))).toContain('4 travel turns since safety');

    // --- roll to return: DC 10 + 4 travel turns; Brannoc's roll comes back against that DC.
    expect(await text(ex.getByTestId('return-dc'))).toContain('DC 14');
    const back = group(ex, 'Roll to return');
    await back.getByLabel('The way back is').selectOption('arduous');
    // The odds before the roll (review 11 #15): best modifier +0 and proficiency +2 need a natural 12 of the d20: 9 in 20.
    // The chances are asked for once shown (each change of the table asked again).
    await ex.getByTestId('return-chances').getByText("Each PC's chance to make it back").click();
    await expect.poll(() => text(ex.getByTestId('return-odds'))).toBe('Brannoc (+2 vs DC 14): 45% to make it back; a miss costs 1 load per point short');
    await back.getByRole('button', { name: 'Roll to return' }).click();
    await ex.getByTestId('return-result').waitFor();
    const ret = await text(ex.getByTestId('return-result'));
    expect(ret).toMatch(/Brannoc rolls to return: d20 \d+ (?:[+-]\d+ )?= -?\d+ vs 14, (made it back safely|dropped \d+ load|carried nothing to drop)/);
    await expect.poll(() => text(ex.getByTestId('return-dc'))).toContain('DC 10');

    // --- the player's phone: the lights they may see, and a lantern lit by their own character.
    const seatLink = await page.getByTestId('seat-link').first().inputValue();
    const { page: phone, errors: phoneErrors } = await open(seatLink, { width: 390, height: 844 }, true);
    const lights = phone.getByTestId('player-lights');
    await lights.getByText('No torches or lanterns.').waitFor();
    await lights.getByRole('button', { name: 'Light a lantern' }).click();
    await expect.poll(() => text(lights.getByTestId('player-light'))).toContain('3 h left');
    expect(await text(lights.getByTestId('player-light'))).toContain('Brannoc');
    // The GM's panel shows the same lantern; only the GM puts it out.
    await expect.poll(() => text(ex.getByTestId('light'))).toContain('lantern');
    expect(await text(ex.getByTestId('light'))).toContain('Brannoc');
    expect(await lights.getByRole('button', { name: /Put out/ }).count()).toBe(0);
    await ex.getByTestId('light').getByRole('button', { name: 'Put out lantern' }).click();
    await expect.poll(() => text(lights.getByTestId('player-light'))).toContain('out');
    expect(phoneErrors).toEqual([]);

    await page.screenshot({ path: path.join(artifactsDir, 'gm-exploration.png'), fullPage: true });
    // The panel folds with the grid: no sideways scrolling on a tablet or a phone.
    for (const width of [1024, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await expect.poll(() => horizontalOverflow(page)).toBe(0);
    }
    await page.screenshot({ path: path.join(artifactsDir, 'gm-exploration-phone.png'), fullPage: true });
    expect(errors).toEqual([]);
  });
});

describe('Kleptonomicon episode bar', () => {
  it('walks an Episode through the bar, with Beats, a refused change in the toast, and the phase on the player\'s phone', async () => {
    const t = await newTable('kleptonomicon');
    const { page: gm, errors } = await open(t.gm, { width: 1440, height: 1000 });
    const seat = await e2e!.seat({ tableId: t.tableId, gmToken: t.token, links: { gm: t.gm } }, 'Pip');
    const seatLink = new URL(seat.link, e2e!.server.url).href;
    expect(seatLink).toMatch(/#seat=/);
    const { page: phone, errors: phoneErrors } = await open(seatLink, { width: 390, height: 844 }, true);

    const bar = gm.getByTestId('episode-bar');
    const phase = () => text(gm.getByTestId('episode-phase'));
    const phonePhase = () => text(phone.getByTestId('episode-phase'));
    expect(await phase()).toBe('Between Episodes');
    expect(await phonePhase()).toBe('Between Episodes');
    // The phone shows the phase read-only.
    expect(await phone.getByTestId('episode-bar').getByRole('button').count()).toBe(0);

    await bar.getByRole('button', { name: 'Start an Episode' }).click();
    await expect.poll(phase).toBe('Opening Credits');
    await expect.poll(phonePhase).toBe('Opening Credits');
    expect(await text(bar.getByRole('heading'))).toBe('Episode 1');
    expect(await text(bar.locator('[aria-current=step]'))).toBe('Opening Credits');

    await bar.getByRole('button', { name: 'Go to Freeplay' }).click();
    await expect.poll(phase).toBe('Freeplay');
    await bar.getByTestId('episode-hint').getByText('Encounter panel').waitFor();

    // The Encounter starts from the tracker; the bar follows the kernel into Initiative, then Main.
    const enc = gm.locator('.area-encounter');
    for (const [name, kind, placement] of [
      ['Quill', 'pc', ''],
      ['Guard', 'npc', 'g1'],
    ] as const) {
      await enc.getByLabel('Name').fill(name);
      await enc.getByLabel('Kind').selectOption(kind);
      if (placement !== '') await enc.getByLabel('Creature type').fill(placement);
      await enc.getByRole('button', { name: 'Add to encounter' }).click();
      await enc.getByRole('list', { name: 'Combatants ready to start' }).getByText(name, { exact: true }).waitFor();
    }
    await enc.getByRole('button', { name: 'Roll initiative' }).click();
    await expect.poll(phase).toBe('Encounter · Main');
    await expect.poll(phonePhase).toBe('Encounter · Main');
    const beats = bar.getByTestId('episode-beats');
    await expect.poll(() => text(beats)).toContain('Guard: 2/2 Beats');
    // The Edge Save decided who acts first; the Pause Beats below are spent off-turn by the other one.
    const acting = (await text(enc.getByTestId('now-acting'))).includes('Now acting: Guard') ? 'Guard' : 'Quill';
    const other = acting === 'Guard' ? 'Quill' : 'Guard';

    // The Pause, ended twice with the other's Beats; the third time the server refuses (no Beat left).
    for (const left of [1, 0]) {
      await bar.getByRole('button', { name: 'Pause' }).click();
      await expect.poll(phase).toBe('Encounter · Pause');
      await bar.getByLabel('Ended by').selectOption({ label: `${other}'s Beat (${left + 1} left)` });
      await bar.getByRole('button', { name: 'Resume (Main phase)' }).click();
      await expect.poll(phase).toBe('Encounter · Main');
      await expect.poll(() => text(beats)).toContain(`${other}: ${left}/2 Beats`);
    }
    await bar.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(phonePhase).toBe('Encounter · Pause');
    await bar.getByLabel('Ended by').selectOption({ label: `${other}'s Beat (0 left)` });
    await bar.getByRole('button', { name: 'Resume (Main phase)' }).click();
    const toast = gm.getByTestId('rejection');
    await toast.waitFor();
    expect(await text(toast)).not.toContain('NO_BEATS');
    expect(await text(toast)).toContain(`${other} has no Beat left`);
    // On one's own turn the Beat comes out of the next turn instead (004 "Pause Phase").
    await bar.getByLabel('Ended by').selectOption({ label: `${acting}'s Beat (2 left)` });
    await bar.getByRole('button', { name: 'Resume (Main phase)' }).click();
    await expect.poll(phase).toBe('Encounter · Main');
    await expect.poll(() => text(beats)).toContain(`${acting}: 2/2 Beats (1 owed from the next turn)`);
    await bar.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(phase).toBe('Encounter · Pause');
    expect(await phase()).toBe('Encounter · Pause');
    await bar.getByLabel('Ended by').selectOption({ label: "nobody's Beat" });
    await bar.getByRole('button', { name: 'Resume (Main phase)' }).click();
    await expect.poll(phase).toBe('Encounter · Main');

    await bar.getByRole('button', { name: 'End the fight: Reward phase' }).click();
    await expect.poll(phase).toBe('Encounter · Reward');
    await expect.poll(phonePhase).toBe('Encounter · Reward');
    expect(await text(phone.getByTestId('episode-bar').locator('.episode-substeps [aria-current=step]'))).toBe('Reward');
    await phone.screenshot({ path: path.join(artifactsDir, 'player-episode.png') });

    await bar.getByRole('button', { name: 'Go to Freeplay' }).click();
    await expect.poll(phase).toBe('Freeplay');
    await bar.getByRole('button', { name: 'Roll the Closing Credits' }).click();
    await expect.poll(phase).toBe('Closing Credits');
    await expect.poll(phonePhase).toBe('Closing Credits');
    await gm.screenshot({ path: path.join(artifactsDir, 'gm-episode.png') });
    await bar.getByLabel('Halve the resets').check();
    await bar.getByRole('button', { name: 'End the Episode' }).click();
    await expect.poll(phase).toBe('Between Episodes');
    await expect.poll(phonePhase).toBe('Between Episodes');
    await gm.getByTestId('log').getByText('Episode 1 ends (halved resets)', { exact: false }).waitFor();

    expect(errors).toEqual([]);
    expect(phoneErrors).toEqual([]);
  });
});
