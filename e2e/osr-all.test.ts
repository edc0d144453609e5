// Issue 20 leftovers (ADR 44), played in real Chromium by clicking:
// - OSR: the GM's morale prompt when the first combatant falls (001 "When To
//   Check Morale") with a button that opens that side's morale form, odds first;
//   Quick action says what was done and never takes the active action without
//   a tick; at End the fight's summary (001 "Death & Injury"), GM only.
// - The phone's sticky "Your turn" banner never covers an opened action form (390x844).
// - A bad link says so, and the status no longer says "retrying".
// - A short join code: the GM's invite panel shows it, a phone types it on the
//   landing page and joins its seat.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { night, openAction, roll, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('osr-all');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator) => ((await l.textContent()) ?? '').replace(/\s+/g, ' ').trim();

/** What the test reads of an element in the page (the root typecheck has no DOM types). */
interface Box {
  getBoundingClientRect(): { left: number; top: number; width: number; height: number };
  contains(other: unknown): boolean;
  ownerDocument: { elementFromPoint(x: number, y: number): unknown };
}

/** The element under the centre of `l` is `l` itself (or inside it): nothing, such as a sticky banner, covers it. */
async function uncovered(l: Locator): Promise<boolean> {
  return l.evaluate<boolean, undefined, Box>((el) => {
    const r = el.getBoundingClientRect();
    const at = el.ownerDocument.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 8));
    return at !== null && (at === el || el.contains(at));
  }, undefined);
}

describe('OSR fight leftovers (ADR 44)', () => {
  it('the first goblin to fall prompts the GM for the foes\' morale with a button and its odds; Quick action logs what it does; End sums the fight up', async () => {
    const n = await night(e2e!, 'osr', 'Ann');
    for (const g of ['Goblin 1', 'Goblin 2']) await n.gmSock.command({ type: 'character.add', name: g, kind: 'npc', stats: { maxHp: 5, hp: 5, dex: 8, ac: 10 } });
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId, stats: { maxHp: 10, hp: 10, dex: 14, ac: 12 } });
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { name: 'Kira', kind: 'pc', side: 'party', characterId: n.idOf('Kira'), stats: { dex: 14 } },
        { name: 'Goblin 1', kind: 'npc', side: 'foes', characterId: n.idOf('Goblin 1'), stats: { dex: 8 } },
        { name: 'Goblin 2', kind: 'npc', side: 'foes', characterId: n.idOf('Goblin 2'), stats: { dex: 8 } },
      ],
    });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);

    // The battle begins: the prompt offers the foes' check.
    const prompt = gm.p.getByTestId('morale-prompt');
    await expect.poll(() => text(prompt)).toContain('Morale? the battle begins: call for morale checks?');

    // The damage box drops Goblin 1 to 0 HP: the first to fall, so the GM is asked at once (not at the fight's end).
    const order = gm.p.getByRole('list', { name: 'Turn order' });
    const row = order.getByTestId('combatant').filter({ hasText: 'Goblin 1' });
    await row.getByText('Adjust Goblin 1').click();
    await row.getByLabel('Amount for Goblin 1').fill('5');
    await row.getByRole('button', { name: 'Damage Goblin 1' }).click();
    await expect.poll(() => text(prompt)).toContain('Goblin 1 is the first to fall in this fight: morale for the foes?');
    // The prompt's button opens the morale form (ADR 55); its roll button checks.
    await prompt.getByRole('button', { name: 'Check morale for the foes (1)' }).click();
    // Odds first: d20 + WIS 0 + morale bonus 0 >= 11 is 10 faces of 20.
    const moraleForm = prompt.getByTestId('action-form');
    await expect.poll(() => text(moraleForm.getByTestId('action-odds'))).toMatch(/^50% to stand and fight ?d20 \+0 WIS \+0 morale bonus vs DC 11/);
    await moraleForm.getByRole('button', { name: 'Roll: Morale check', exact: true }).click();
    await expect.poll(() => text(gm.p.getByTestId('log'))).toMatch(/Morale for the foes, Goblin 2 \(Goblin 1 is the first to fall in this fight: morale for the foes\?\): d20 \d+ = \d+ vs 11: they (stand and fight|surrender or flee)\./);
    // The prompts are the GM's: the phone never reads them.
    expect(await text(ann.p.getByTestId('log'))).not.toContain('Morale?');

    // Kira acts first (DEX 14): a Quick action names what it does; the second is paid with the movement action.
    // The form stays open after each, its result below it.
    const quick = await openAction(gm.p, 'Quick action');
    const take = async (what: string) => {
      await quick.getByLabel('What it is').fill(what);
      await quick.getByRole('button', { name: 'Quick action', exact: true }).click();
    };
    await take('draws a dagger');
    await expect.poll(() => text(quick.getByTestId('action-result'))).toContain('Kira takes a quick action: draws a dagger.');
    await take('drinks a potion');
    await expect.poll(() => text(quick.getByTestId('action-result'))).toContain('Kira takes a quick action: drinks a potion (paid with the movement action).');
    // The third would take the attack: the button says so before the click, the form asks for a tick first.
    const panel = gm.p.getByTestId('actions-panel');
    await expect.poll(() => panel.getByRole('button', { name: /^Quick action \(the active action \(the quick action is spent\)\)/ }).count()).toBe(1);
    await quick.getByLabel('Pay with the active action').waitFor();
    await take('kicks sand');
    await expect.poll(() => text(quick)).toContain('would use up the active action (the others are spent this turn): tick "Pay with the active action" to do it anyway');
    await quick.getByLabel('Pay with the active action').check();
    await quick.getByRole('button', { name: 'Quick action', exact: true }).click();
    await expect.poll(() => text(quick.getByTestId('action-result'))).toContain('Kira takes a quick action: kicks sand (paid with the active action).');

    // End: the summary on the GM's screen and log (Goblin 1 fell 6 seconds before the end: 54 of its 60 left).
    await gm.p.getByTestId('end-encounter').click();
    // The fight's one round is on the clock, for both (ADR 44).
    await expect.poll(() => text(gm.p.getByTestId('clock-time'))).toBe('Day 1, 00:00:06');
    await expect.poll(() => text(ann.p.getByTestId('clock-time'))).toBe('Day 1, 00:00:06');
    const summary = 'The fight is over after 1 round. Nobody died. Dying, dead unless stabilized in time: Goblin 1 (54 s left). Still standing: the party, Kira; the foes, Goblin 2.';
    // The screen's sentence leaves the dying out: they are listed live under it (ADR 55), while the log keeps the whole summary.
    await expect.poll(() => text(gm.p.getByTestId('fight-summary'))).toBe('The fight is over after 1 round. Nobody died. Still standing: the party, Kira; the foes, Goblin 2.');
    await expect.poll(() => text(gm.p.getByTestId('dying-fate'))).toBe('Goblin 1 is dying: 54 s left to stabilize.');
    await expect.poll(() => text(gm.p.getByTestId('log'))).toContain(summary);
    await expect.poll(() => text(ann.p.getByTestId('no-encounter'))).toBe('The encounter has ended.');
    expect(await ann.p.getByTestId('fight-summary').count()).toBe(0);
    expect(ann.frames.some((f) => f.includes('The fight is over'))).toBe(false);
    expect(await axeViolations(gm.p)).toEqual([]);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });
});

describe('every ruleset (ADR 44)', () => {
  it('at 390x844 the "Your turn" banner covers no part of an opened action form, even scrolled to its first field', async () => {
    const n = await night(e2e!, 'osr', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Goblin', kind: 'npc', stats: { maxHp: 5, hp: 5, dex: 8, ac: 10 } });
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId, stats: { maxHp: 10, hp: 10, dex: 14, ac: 12 } });
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { name: 'Kira', kind: 'pc', side: 'party', characterId: n.idOf('Kira'), stats: { dex: 14 } },
        { name: 'Goblin', kind: 'npc', side: 'foes', characterId: n.idOf('Goblin'), stats: { dex: 8 } },
      ],
    });
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);
    const banner = ann.p.getByTestId('your-turn');
    await expect.poll(() => text(banner)).toBe('Your turn: Kira');
    const form = await openAction(ann.p, 'Quick action');
    const field = form.getByLabel('What it is');
    const below = async () => {
      const b = (await banner.boundingBox())!;
      const f = (await field.boundingBox())!;
      return f.y >= b.y + b.height;
    };
    await expect.poll(below).toBe(true);
    await expect.poll(() => uncovered(field)).toBe(true);
    // Scrolled to the field as focus or a link would: it stops below the banner, which stays on screen.
    await field.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await expect.poll(below).toBe(true);
    await expect.poll(() => uncovered(field)).toBe(true);
    await field.click({ trial: true });
    await field.fill('ducks behind a crate');
    expect(await roll(form, 'Quick action')).toContain('Kira takes a quick action: ducks behind a crate.');
    expect(ann.errors).toEqual([]);
  });

  it('a bad link says what to do, and the status stops saying "retrying"', async () => {
    const ctx = await e2e!.browser.newContext({ viewport: { width: 390, height: 844 } });
    contexts.push(ctx);
    const page = await ctx.newPage();
    await page.goto(`${e2e!.server.url}/#seat=not-a-real-token-0123456789abcdef`);
    await page.getByTestId('link-problem').waitFor({ timeout: 15_000 });
    expect(await text(page.getByTestId('link-problem'))).toContain('Ask the GM for a new link');
    await expect.poll(() => text(page.getByTestId('conn-status'))).toBe('Not connected');
    expect(await text(page.getByTestId('conn-status'))).not.toContain('retrying');
  });

  it('a phone types the seat\'s short join code on the landing page and joins that seat; a wrong code is refused in words', async () => {
    const t = await e2e!.table('teams', 'Join by code');
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const invite = gm.p.locator('.area-invite');
    await invite.getByPlaceholder('Player name').fill('Bo');
    await invite.getByRole('button', { name: 'Add player seat' }).click();
    const shown = invite.getByTestId('join-code');
    await expect.poll(() => text(shown)).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    const code = await text(shown);
    expect(await invite.getByTestId('seat-link').count()).toBe(1);

    const ctx = await e2e!.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    contexts.push(ctx);
    const phone = await ctx.newPage();
    await phone.goto(`${e2e!.server.url}/`);
    const box = phone.getByLabel('Join code');
    // A mistyped code (an O for a 0 is no symbol of the code at all) is refused with what to do.
    await box.fill('ABCD-EFG0');
    await phone.getByRole('button', { name: 'Join', exact: true }).click();
    await expect.poll(() => text(phone.getByTestId('join-error'))).toBe('A join code has no "0": it uses capital letters and the digits 2-9 (never 0, O, 1 or I).');
    // Typed as a person would, in lower case.
    await box.fill(code.toLowerCase());
    await phone.getByRole('button', { name: 'Join', exact: true }).click();
    await phone.locator('[data-testid=conn-status][data-status=open]').waitFor();
    await expect.poll(() => text(phone.locator('.topbar'))).toContain('Bo');
    expect(phone.url()).toMatch(/#seat=[A-Za-z0-9_-]{16,}$/);
    expect(await axeViolations(phone)).toEqual([]);

    // Used once: the GM's "New code" gives the seat another.
    await invite.getByRole('button', { name: 'New code for Bo' }).click();
    await expect.poll(() => text(shown)).not.toBe(code);
    expect(await axeViolations(gm.p)).toEqual([]);
    expect(gm.errors).toEqual([]);
  });
});
