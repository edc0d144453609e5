// One turn change, one announcement (review 13 #14), in real Chromium: the GM
// page and the player's phone each hold one polite live region that names
// whose turn it is ("Your turn: Kira" on Kira's own phone); the "Now acting"
// line, Daggerheart's "Now:" spotlight line, the "Your turn" banner and the
// log stay on screen but are not read out again. axe stays clean.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { night, screen, startE2e } from './actions-flow.ts';
import { osrKiraAgainst } from './fixtures.ts';
import type { E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('turn-announcements');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

/** The text of every outermost live region (aria-live other than off, or a status / log / alert role) that names `name`. */
async function spokenWith(p: Page, name: string): Promise<string[]> {
  // A string, so this Node-side file needs no DOM types.
  return p.evaluate<string[]>(`(() => {
    const live = [...document.querySelectorAll('[aria-live]:not([aria-live=off]), [role=status], [role=log], [role=alert]')];
    const outer = live.filter((el) => !live.some((o) => o !== el && o.contains(el)));
    return outer.map((el) => el.textContent.replace(/\\s+/g, ' ').trim()).filter((t) => t.includes(${JSON.stringify(name)}));
  })()`);
}

const text = async (p: Page, id: string): Promise<string> => ((await p.getByTestId(id).first().textContent()) ?? '').replace(/\s+/g, ' ').trim();

describe('turn announcements', () => {
  it('OSR: the GM page and the phone each say a turn change once; the phone says "Your turn" for its own character', async () => {
    const { t, annSeat } = await osrKiraAgainst(e2e!, 'Quiet crypt', { name: 'Ghoul', stats: { dex: 6, hp: 9, maxHp: 9 } });
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, annSeat.link, true);
    // Kira's DEX 14 beats the Ghoul's 6 (001 "Initiative"): her turn first.
    await expect.poll(() => text(ann.p, 'your-turn')).toBe('Your turn: Kira');
    await expect.poll(() => spokenWith(ann.p, 'Kira')).toEqual(['Your turn: Kira']);
    await expect.poll(() => spokenWith(gm.p, 'Kira')).toEqual(["Kira's turn"]);

    await gm.p.getByTestId('next-turn').click();
    await expect.poll(() => text(gm.p, 'now-acting')).toContain('Now acting: Ghoul');
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toContain('Ghoul');
    await expect.poll(() => spokenWith(gm.p, 'Ghoul')).toEqual(["Ghoul's turn"]);
    await expect.poll(() => text(ann.p, 'now-acting')).toContain('Now acting: Ghoul');
    await expect.poll(() => spokenWith(ann.p, 'Ghoul')).toEqual(["Ghoul's turn"]);
    // The log, the banner and the visible line still show it: only the reading out is single.
    expect(await ann.p.getByTestId('your-turn').count()).toBe(0);

    expect(await axeViolations(gm.p)).toEqual([]);
    expect(await axeViolations(ann.p)).toEqual([]);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });

  it('Daggerheart: the spotlight passed to Kira is said once on the GM page (not by "Now:", "Now acting" and the log) and once on her phone', async () => {
    const n = await night(e2e!, 'daggerheart', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId, stats: { evasion: 10 } });
    await n.gmSock.command({ type: 'daggerheart.addAdversaries', name: 'Imp', count: 1, difficulty: 11, major: 4, severe: 8, hp: 3, attack: 1, damage: '1d6', visibility: 'visible' });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const phone = await screen(e2e!.browser, contexts, n.links.seat, true);
    await gm.p.getByTestId('daggerheart-gm').getByTestId('spotlight').getByRole('button', { name: 'Start a conflict (2)' }).click();
    await expect.poll(() => text(gm.p, 'next-turn')).toBe('Next turn: KiraN');
    await gm.p.getByTestId('next-turn').click();
    await expect.poll(() => text(phone.p, 'your-turn')).toBe('Your turn: Kira');
    await expect.poll(() => gm.p.getByTestId('spotlight-holder').textContent()).toBe('Kira');
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toContain('Kira');
    await expect.poll(() => spokenWith(gm.p, 'Kira')).toEqual(["Kira's turn"]);
    await expect.poll(() => spokenWith(phone.p, 'Kira')).toEqual(['Your turn: Kira']);

    expect(await axeViolations(gm.p)).toEqual([]);
    expect(await axeViolations(phone.p)).toEqual([]);
    expect([...gm.errors, ...phone.errors]).toEqual([]);
  });
});
