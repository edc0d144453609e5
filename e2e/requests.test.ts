// Player requests in real Chromium (issue 20, ADR 29), OSR: Ann's phone asks
// the GM for 3 damage on Kira ("spike trap"); the GM's queue shows it and one
// tap approves it (Kira 10 -> 7 on both screens); a healing request is
// declined and the phone says so; a condition request becomes a chip; undo
// takes an approval back and the request waits again. Bo's phone never
// receives Ann's request, and axe finds nothing serious on either screen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('requests');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

/** Fills the phone's "Ask the GM" form and sends it. */
async function ask(p: Page, kind: 'Damage' | 'Healing' | 'A condition', fill: (p: Page) => Promise<void>, note = '') {
  const form = p.getByTestId('ask-gm');
  await form.getByLabel(/^For /).selectOption({ label: kind });
  await fill(p);
  await form.getByLabel('A word to the GM (optional)').fill(note);
  await form.getByRole('button', { name: 'Send to the GM' }).click();
}

const kiraHp = (p: Page) => p.getByTestId('my-character').getByRole('meter', { name: 'Kira HP' }).getAttribute('aria-valuenow');

describe('player requests with one-tap approval', () => {
  it('ask, approve, decline, a condition, undo; private to the asking seat', async () => {
    const t = await e2e!.table('osr', 'Requests night');
    const annSeat = await e2e!.seat(t, 'Ann');
    const bo = await e2e!.seat(t, 'Bo');
    const gmSock = await e2e!.socket(t.gmToken);
    const n = { gmSock, seatId: annSeat.seatId, links: { gm: t.links.gm, seat: annSeat.link }, idOf: (name: string) => Object.values(gmSock.view().world.characters).find((c) => c.name === name)!.id };
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId, stats: { maxHp: 10, hp: 10, dex: 14, ac: 12 } });
    await n.gmSock.command({ type: 'character.add', name: 'Brak', kind: 'pc', seatId: bo.seatId, stats: { maxHp: 10, hp: 10, dex: 10, ac: 12 } });
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { name: 'Kira', kind: 'pc', side: 'party', characterId: n.idOf('Kira'), stats: { dex: 14, hp: 10, maxHp: 10 } },
        { name: 'Brak', kind: 'pc', side: 'party', characterId: n.idOf('Brak'), stats: { dex: 10, hp: 10, maxHp: 10 } },
        { name: 'Goblin', kind: 'npc', side: 'foes', stats: { dex: 8, hp: 5, maxHp: 5 } },
      ],
    });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);
    const bos = await screen(e2e!.browser, contexts, bo.link, true);
    await expect.poll(() => kiraHp(ann.p)).toBe('10');

    // --- a blank amount is caught on the phone, in words
    await ask(ann.p, 'Damage', async () => {});
    await expect.poll(() => ann.p.getByTestId('ask-gm').getByRole('alert').textContent()).toBe('Type a whole number from 1 to 10000.');

    // --- 3 damage from the spike trap: the GM approves in one tap
    await ask(ann.p, 'Damage', (p) => p.getByLabel('Damage taken').fill('3'), 'spike trap');
    await expect.poll(() => ann.p.getByTestId('my-requests').textContent()).toContain('3 damagewaiting for the GM');
    const queue = gm.p.getByTestId('request-queue');
    await expect.poll(() => queue.textContent()).toContain('Kira (Ann): 3 damage');
    expect(await queue.textContent()).toContain('spike trap');
    await queue.getByRole('button', { name: 'Approve Kira (Ann): 3 damage' }).click();
    await expect.poll(() => kiraHp(ann.p)).toBe('7');
    await expect.poll(() => ann.p.getByTestId('my-requests').textContent()).toContain('3 damageapproved');
    await expect.poll(() => gm.p.getByTestId('request-queue').count()).toBe(0);
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toContain('Kira takes 3 damage');

    // --- healing declined: the phone says so, Kira keeps 7
    await ask(ann.p, 'Healing', (p) => p.getByLabel('Hit points to heal').fill('5'));
    await expect.poll(() => queue.textContent()).toContain('Kira (Ann): 5 healing');
    await queue.getByRole('button', { name: 'Decline Kira (Ann): 5 healing' }).click();
    await expect.poll(() => ann.p.getByTestId('my-requests').textContent()).toContain('5 healingdeclined by the GM');
    expect(await kiraHp(ann.p)).toBe('7');

    // --- a condition of the player's own naming, for 2 rounds, shows as a chip once approved
    await ask(ann.p, 'A condition', async (p) => {
      const f = p.getByTestId('ask-gm');
      await f.getByLabel('Condition', { exact: true }).selectOption({ label: 'Other (type a name)' });
      await f.getByLabel('Name of the condition').fill('Soaked');
      await f.getByLabel('How long').selectOption('rounds');
      await f.getByLabel('Rounds').fill('2');
    });
    await expect.poll(() => queue.textContent()).toContain('Kira (Ann): Soaked for 2 rounds');
    await queue.getByRole('button', { name: 'Approve Kira (Ann): Soaked for 2 rounds' }).click();
    await expect.poll(() => ann.p.getByRole('list', { name: 'Your conditions' }).textContent()).toContain('Soaked');

    // --- undo takes the approval back: no chip, and the request waits in the queue again
    await expect.poll(() => gm.p.getByTestId('undo').textContent()).toBe('↶ Undo: approve a request');
    await gm.p.getByTestId('undo').click();
    await expect.poll(() => ann.p.getByRole('list', { name: 'Your conditions' }).count()).toBe(0);
    await expect.poll(() => gm.p.getByTestId('request-queue').textContent()).toContain('Soaked for 2 rounds');
    await expect.poll(() => ann.p.getByTestId('my-requests').textContent()).toContain('Soaked for 2 roundswaiting for the GM');

    // --- Bo's phone never received Ann's requests, nor her note (the approved condition itself is public, as the GM's own would be)
    expect(await bos.p.content()).not.toContain('spike trap');
    expect(bos.frames.filter((f) => f.includes('spike trap') || f.includes('request.') || f.includes('asks the GM'))).toEqual([]);
    await expect.poll(() => bos.p.getByTestId('my-requests').count()).toBe(0);

    // --- accessibility of both screens with the queue and the form showing
    expect(await axeViolations(gm.p)).toEqual([]);
    expect(await axeViolations(ann.p)).toEqual([]);
    expect([...gm.errors, ...ann.errors, ...bos.errors]).toEqual([]);
  });
});
