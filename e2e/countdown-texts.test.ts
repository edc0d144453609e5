// Countdown texts and story beats marked one by one, in real Chromium (audit 13 #9, #10; 000 "Using a Countdown",
// "Increasing or Decreasing", "Example Long-Term Countdown"). The GM's form sends activation, advancement and a
// decreasing countdown's major event; both cards show them, and a hidden countdown's texts reach no phone (frames
// and page). Beats marked "!" reach the phone once reached; the others stay the GM's even when passed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { night, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('countdown-texts');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator) => ((await l.textContent()) ?? '').replace(/\s+/g, ' ').trim();
const CANARY = 'CANARY-cd-Zq';

describe('countdown texts and per-beat news (audit 13 #9, #10)', () => {
  it('the GM types activation, advancement and the major event; the phone reads a visible one, never a hidden one; only "!" beats reach the phone', async () => {
    const n = await night(e2e!, 'daggerheart', 'Ann');
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);
    const cd = gm.p.locator('.area-countdowns');
    await cd.getByText('New countdown or chase').click();
    const create = async (o: { name: string; repeat?: string; visibility?: string; start: string; effect?: string; final?: string; activation?: string; advancement?: string; kind?: string; beats?: string }) => {
      await cd.getByLabel('Name', { exact: true }).fill(o.name);
      await cd.getByLabel('Kind').selectOption(o.kind ?? 'standard');
      await cd.getByLabel('After it triggers').selectOption(o.repeat ?? 'once');
      await cd.getByLabel('Start').fill(o.start);
      await cd.getByLabel('Players see').last().selectOption(o.visibility ?? 'visible');
      if (o.effect !== undefined) await cd.getByLabel('When it triggers').fill(o.effect);
      if (o.final !== undefined) await cd.getByLabel('When it runs out for good (the major event at 0)').fill(o.final);
      if (o.activation !== undefined) await cd.getByLabel('Activates when (optional)').fill(o.activation);
      if (o.advancement !== undefined) await cd.getByLabel('Advances when (optional)').fill(o.advancement);
      if (o.beats !== undefined) await cd.getByLabel('Story beats (one a line, "value: what happens")').fill(o.beats);
      await cd.getByRole('button', { name: 'Create countdown' }).click();
      await expect.poll(() => cd.getByTestId('countdown').filter({ hasText: o.name }).count()).toBe(1);
    };

    // The major event's field is there only for a decreasing countdown.
    await cd.getByLabel('After it triggers').selectOption('loop');
    expect(await cd.getByLabel('When it runs out for good (the major event at 0)').count()).toBe(0);
    await cd.getByLabel('After it triggers').selectOption('decreasing');
    expect(await cd.getByLabel('When it runs out for good (the major event at 0)').count()).toBe(1);

    await create({ name: 'Rubble Falling', repeat: 'decreasing', start: '2', effect: 'rubble falls on the PCs', final: 'the caves collapse entirely', activation: 'the PCs enter the caves', advancement: 'each action roll' });
    const lines = ['rubble falls on the PCs', 'Activates when: the PCs enter the caves', 'Advances when: each action roll', 'At 0 for good: the caves collapse entirely'];
    const gmCard = cd.getByTestId('countdown').filter({ hasText: 'Rubble Falling' });
    await expect.poll(() => gmCard.locator('.small.muted').allTextContents()).toEqual(lines);
    // The phone reads the same texts on a visible countdown.
    const annCard = ann.p.getByTestId('countdown').filter({ hasText: 'Rubble Falling' });
    await expect.poll(() => annCard.locator('.small.muted').allTextContents()).toEqual(lines);

    // A hidden one: the GM's card has its texts; no frame and no page of the phone ever holds them.
    await create({ name: `${CANARY} plan`, repeat: 'decreasing', visibility: 'hidden', start: '3', effect: `${CANARY} effect`, final: `${CANARY} final`, activation: `${CANARY} activation`, advancement: `${CANARY} advancement` });
    await expect.poll(() => text(cd.getByTestId('countdown').filter({ hasText: `${CANARY} plan` }))).toContain(`At 0 for good: ${CANARY} final`);

    // Decreasing 2 run to its end: 2 ticks, reset to 1, 1 tick, then the major event ends it (in the GM's log with its words).
    for (let i = 0; i < 3; i++) await cd.getByRole('button', { name: 'Tick Rubble Falling down by one' }).click();
    await expect.poll(() => text(gm.p.getByTestId('log'))).toContain('Rubble Falling would reset to 0: the major event happens: the caves collapse entirely');
    await expect.poll(() => text(ann.p.getByTestId('log'))).toContain('the caves collapse entirely');

    // Long-term, 000's example in our words: from 8, steps 6 and 3 are news for the party.
    const beats = ['8: a deal is struck', '7: a border town is raided', '!6: troops gather at the border', '5: a second town is taken', '4: the army marches in', '!3: refugees flee with news of the invasion', '2: the defenders are harried', '1: a temple is rededicated', '0: open war'].join('\n');
    await create({ name: 'Invasion', kind: 'longTerm', start: '8', beats });
    const gmBeats = cd.getByTestId('countdown').filter({ hasText: 'Invasion' }).getByTestId('countdown-beats').locator('li');
    await expect.poll(() => gmBeats.count()).toBe(9);
    const annBeats = ann.p.getByTestId('countdown').filter({ hasText: 'Invasion' }).getByTestId('countdown-beats').locator('li');
    const tick = () => cd.getByRole('button', { name: 'Tick Invasion down by one' }).click();
    await tick();
    await tick();
    await expect.poll(() => annBeats.allTextContents()).toEqual(['6: troops gather at the border (reached)']);
    for (let i = 0; i < 3; i++) await tick();
    await expect.poll(() => gmBeats.filter({ hasText: '(reached)' }).count()).toBe(6);
    await expect.poll(() => annBeats.allTextContents()).toEqual(['6: troops gather at the border (reached)', '3: refugees flee with news of the invasion (reached)']);
    // Passed, but the GM's: 7, 5 and 4 are nowhere on the phone.
    const page = await ann.p.content();
    for (const gms of ['a border town is raided', 'a second town is taken', 'the army marches in', 'a deal is struck']) {
      expect(page).not.toContain(gms);
      expect(ann.frames.filter((f) => f.includes(gms))).toEqual([]);
    }

    expect(await ann.p.content()).not.toContain(CANARY);
    expect(ann.frames.filter((f) => f.includes(CANARY))).toEqual([]);
    expect(gm.frames.some((f) => f.includes(CANARY))).toBe(true);
    expect(await axeViolations(gm.p)).toEqual([]);
    expect(await axeViolations(ann.p)).toEqual([]);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });
});
