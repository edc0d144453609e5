// Issue 20's named leftovers (session 14, ADR 111), played as a user would in real Chromium:
// 1. the landing page's "Advanced: table rules" makes an OSR table whose night's rest is 10 hours, shown in
//    the GM's Table rules panel and on the clock after a rest (its controls load only when opened);
// 2. a check with several light tags, picked by ticking on the GM screen and on the phone, with the odds the
//    roll applies (the light is one source: one advantage, one disadvantage);
// 3. a purse lost on an arduous return, the GM's choice on screen, the loss in the log, and Undo.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { night, oddsOf, openTableRules, roll, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';
import { axeViolations } from './session.ts';
import { horizontalOverflow, watchErrors } from './web.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('osr-leftovers14');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator): Promise<string> => (await l.textContent()) ?? '';
const logOf = (p: Page) => text(p.getByTestId('log'));

/** Opens the Skill checks panel and picks who and which check; returns the check's form. */
async function checkForm(p: Page, who: string | null, which: string): Promise<Locator> {
  const panel = p.getByTestId('skill-checks');
  if ((await panel.getAttribute('open')) === null) await panel.locator('summary').click();
  if (who !== null) await panel.getByLabel('Who makes it').selectOption({ label: who });
  await panel.getByLabel('Which check').selectOption({ label: which });
  await panel.getByTestId('action-form').waitFor();
  return panel.getByTestId('action-form');
}

describe('OSR leftovers of the game night (ADR 111)', () => {
  it('1: a table made with a 10-hour night from "Advanced: table rules" shows it in Table rules, and a safe night moves the clock 10 hours', async () => {
    const ctx = await e2e!.browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(ctx);
    const p = await ctx.newPage();
    const errors = watchErrors(p);
    const scripts: string[] = [];
    p.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(r.url());
    });
    await p.goto(`${e2e!.server.url}/`);
    await p.getByLabel('Table name').fill('Deep halls');
    await p.getByLabel('Rules').selectOption('osr');
    // The rules' controls are not downloaded until the disclosure is opened.
    expect(scripts.some((u) => /TableRules/.test(u))).toBe(false);
    const advanced = p.getByTestId('create-rules');
    await advanced.locator('summary').click();
    const night10 = advanced.getByTestId('rule-osr-restHoursPerNight');
    await night10.waitFor();
    expect(scripts.some((u) => /TableRules/.test(u))).toBe(true);
    expect(await text(night10)).toContain('(the default)');
    // Out of range first: refused in words before anything is sent; then 10.
    await night10.locator('input[type=number]').fill('30');
    await night10.getByRole('button', { name: 'Set' }).click();
    await expect.poll(() => text(night10.getByRole('alert'))).toMatch(/must be a whole number from 1 to 24; 30 is not\.$/);
    await night10.locator('input[type=number]').fill('10');
    await night10.getByRole('button', { name: 'Set' }).click();
    await expect.poll(() => night10.getByRole('button', { name: 'Back to the default (8)' }).count()).toBe(1);
    expect(await night10.getByRole('alert').count()).toBe(0);
    expect(await text(advanced.locator('summary'))).toBe('Advanced: table rules (1 changed from the default)');
    // A rule ticked and then set back to its default is not sent: the count goes back to one.
    const miss = advanced.getByTestId('rule-osr-natural1AlwaysMisses');
    await miss.getByRole('checkbox').check();
    await expect.poll(() => text(advanced.locator('summary'))).toBe('Advanced: table rules (2 changed from the defaults)');
    await miss.getByRole('button', { name: /^Back to the default/ }).click();
    await expect.poll(() => text(advanced.locator('summary'))).toBe('Advanced: table rules (1 changed from the default)');
    expect(await text(miss)).toContain('(the default)');
    // On a phone's width the open rules still fit the page.
    await p.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => horizontalOverflow(p)).toBe(0);
    await p.setViewportSize({ width: 1280, height: 900 });
    // Every control of the open rules has its name: no serious or critical accessibility violation.
    expect(await axeViolations(p)).toEqual([]);
    await p.getByRole('button', { name: 'Create table' }).click();
    await p.locator('[data-testid=conn-status][data-status=open]').waitFor();

    // The GM's Table rules panel reads 10, not the default.
    const kept = (await openTableRules(p)).getByTestId('rule-osr-restHoursPerNight');
    await kept.waitFor();
    expect(await kept.locator('input[type=number]').inputValue()).toBe('10');
    expect(await kept.getByRole('button', { name: 'Back to the default (8)' }).count()).toBe(1);
    expect(await text(p.getByTestId('table-rules').getByTestId('rule-osr-natural1AlwaysMisses'))).toContain('(the default)');

    // The behaviour it changes: a safe night's rest moves the clock from midnight to 10:00 (8 by default).
    const clock = p.locator('.area-clock');
    expect(await text(clock.getByTestId('clock-time'))).toBe('Day 1, 00:00');
    await clock.getByRole('button', { name: "A safe night's rest" }).click();
    await expect.poll(() => text(clock.getByTestId('clock-time'))).toBe('Day 1, 10:00');
    expect(errors).toEqual([]);
  }, 240_000);

  it('2: Listen in darkness with stealth ticked too is still one advantage; seeing ticked makes it impossible; finesse cancels it; the phone ticks too', async () => {
    const n = await night(e2e!, 'osr', 'Ann');
    // WIS 12 (+1); no proficiency asked for.
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId, stats: { hp: 8, maxHp: 8, dex: 14, wis: 12 } });
    await n.gmSock.command({ type: 'osr.setLight', level: 'darkness' });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);

    const listen = await checkForm(gm.p, 'Kira', 'Listen');
    const light = listen.getByRole('group', { name: 'The light bears on' });
    expect(await light.getByLabel('listening').isChecked()).toBe(true);
    expect(await light.getByLabel('stealth').isChecked()).toBe(false);
    await listen.getByLabel('Difficulty (DC)').fill('15');
    // Darkness favours listening: a kept 14+ of two d20s, 1 - (13/20)² = 231 of 400.
    await expect.poll(() => text(listen.getByTestId('action-odds').locator('strong'))).toMatch(/^57\.[78]% to succeed$/);
    // Stealth too: the light is one source, still one advantage.
    await light.getByLabel('stealth').check();
    await expect.poll(() => text(listen.getByTestId('action-odds').locator('strong'))).toMatch(/^57\.[78]% to succeed$/);
    // Seeing in darkness cannot succeed, whatever else is ticked.
    await light.getByLabel('seeing (spotting, searching by sight)').check();
    await oddsOf(listen, '0% to succeed');
    await light.getByLabel('seeing (spotting, searching by sight)').uncheck();
    // Finesse is hindered in darkness: with the favoured kinds it cancels to one die, 7 of 20 (a 14+).
    await light.getByLabel('finesse (disarming, fine handwork)').check();
    await oddsOf(listen, '35% to succeed');
    await roll(listen, 'Roll: Listen');
    // One die rolled (no pair), both of the light's reasons said.
    await expect.poll(() => logOf(ann.p)).toMatch(/Kira (passed|failed) a listening check: d20 \d+ \+1 = \d+ vs 15 \(darkness light favours it, darkness light hinders it\)\./);

    // The phone: Ann's Listen opens on listening; she ticks stealth and sees the same odds as the GM did.
    const phoneListen = await checkForm(ann.p, null, 'Listen');
    const phoneLight = phoneListen.getByRole('group', { name: 'The light bears on' });
    await phoneListen.getByLabel('Difficulty (DC)').fill('15');
    await phoneLight.getByLabel('stealth').check();
    await expect.poll(() => text(phoneListen.getByTestId('action-odds').locator('strong'))).toMatch(/^57\.[78]% to succeed$/);
    await roll(phoneListen, 'Roll: Listen');
    await expect.poll(() => logOf(gm.p)).toMatch(/Kira (passed|failed) a listening check: d20 \d+ \/ \d+ \+1 = \d+ vs 15 \(darkness light favours it\)\./);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  }, 240_000);

  it('3: an arduous return that cannot be made: the GM picks "the purse first", the purse and gear dropped are in the log, and Undo gives them back', async () => {
    const n = await night(e2e!, 'osr', 'Ann');
    // Every score 1 (-5) and proficiency +2: at best 20 - 3 = 17, under DC 20 (ten travel turns out), so the roll fails by 3 or more.
    const scores = { str: 1, dex: 1, con: 1, int: 1, wis: 1, cha: 1 };
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId, stats: { hp: 8, maxHp: 8, ...scores, load: 5, gp: 300 } });
    for (let i = 0; i < 10; i++) await n.gmSock.command({ type: 'osr.travelTurn' });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);
    const ex = gm.p.getByTestId('exploration');
    const back = ex.getByRole('group', { name: 'Roll to return', exact: true });
    expect(await text(ex.getByTestId('return-dc'))).toContain('DC 20');
    // The coins' choice is offered only for an arduous way back.
    expect(await back.getByLabel('Coins on a failure').count()).toBe(0);
    await back.getByLabel('The way back is').selectOption('arduous');
    await back.getByLabel('Coins on a failure').selectOption({ label: 'the purse first' });
    await back.getByRole('button', { name: 'Roll to return' }).click();
    // 300 gp is one load (500 coins to a load, a part-load whole); the rest of the 3+ loads short is gear.
    const line = /Kira rolls to return: d20 \d+( \/ \d+)? -3 = -?\d+ vs 20, dropped 300 gp from the purse \(1 load\) and (\d) loads of gear \(the GM picks the items, least valuable first\) on the way, the purse first as the GM chose\./;
    await expect.poll(() => text(ex.getByTestId('return-result'))).toMatch(line);
    await expect.poll(() => logOf(ann.p)).toMatch(line);
    const gear = Number(line.exec(await text(ex.getByTestId('return-result')))![2]);
    expect(gear).toBeGreaterThanOrEqual(2);
    await expect.poll(() => n.gmSock.view().world.characters[n.idOf('Kira')]!.stats['gp']).toBe(0);
    expect(n.gmSock.view().world.characters[n.idOf('Kira')]!.stats['load']).toBe(5 - gear);
    // Undo: the roll and its losses go back.
    const undo = gm.p.getByTestId('undo');
    await expect.poll(() => text(undo)).toContain('roll to return');
    await undo.click();
    await expect.poll(() => logOf(ann.p)).not.toContain('from the purse');
    await expect.poll(() => n.gmSock.view().world.characters[n.idOf('Kira')]!.stats['gp']).toBe(300);
    expect(n.gmSock.view().world.characters[n.idOf('Kira')]!.stats['load']).toBe(5);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  }, 240_000);
});
