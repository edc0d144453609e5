// Daggerheart's adversaries in real Chromium (issue 20, GM review): one way in,
// the bestiary's stat block with a count. The GM screen has no typed
// adversary form and no "Roll initiative" builder (the spotlight rolls none);
// a stat block holds a move with the countdown it starts; a second group of
// the same block goes on counting (Wolf 1-2, then Wolf 3); each adversary's
// card shows its move and the countdown's value, which an action roll ticks.
// The phone never receives the hidden move or its countdown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { screen } from './actions-flow.ts';
import { daggerheartSeat, startE2e, type E2e } from './harness.ts';
import { axeViolations } from './session.ts';

const CANARY = 'Pounce-Xq-canary';
let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('daggerheart-adversaries');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator): Promise<string> => (await l.textContent()) ?? '';

describe('Daggerheart adversaries from the bestiary', () => {
  it('one path in: a stat block with a move and its countdown; a second group goes on counting; the move reaches the GM board', async () => {
    const { t, seat, gmSock, kira } = await daggerheartSeat(e2e!, 'Den night');
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, seat.link, true);

    // Nothing that does not apply: no typed adversary form, no initiative builder.
    const adversaries = gm.p.getByTestId('adversaries');
    await expect.poll(() => text(adversaries.getByTestId('adversaries-how'))).toContain('Add adversaries from a stat block in the Bestiary below');
    expect(await adversaries.getByRole('button', { name: 'Add group' }).count()).toBe(0);
    expect(await adversaries.locator('input').count()).toBe(0);
    await expect.poll(() => text(gm.p.getByTestId('spotlight-start'))).toContain('Daggerheart has no initiative');
    expect(await gm.p.getByTestId('encounter-builder').count()).toBe(0);
    expect(await gm.p.getByTestId('roll-initiative').count()).toBe(0);

    // A Wolf stat block with one move that starts a looping countdown at 3.
    const best = gm.p.getByTestId('bestiary');
    await best.getByText('New stat block').click();
    const form = best.getByTestId('bestiary-new');
    await form.getByLabel('Name', { exact: true }).fill('Wolf');
    for (const [label, v] of [[/^HP/, '4'], [/^Difficulty/, '11'], [/^Major/, '5'], [/^Severe/, '9'], [/^Attack/, '2'], [/^Damage/, '1d6+1']] as const) await form.getByLabel(label).fill(v);
    await form.getByRole('button', { name: 'add moves' }).click();
    await form.locator('[id="be-new-block.moves.0.name"]').fill(CANARY);
    await form.locator('[id="be-new-block.moves.0.text"]').fill('leaps on the nearest PC');
    await form.locator('[id="be-new-block.moves.0.countdown.start"]').fill('3');
    await form.locator('[id="be-new-block.moves.0.countdown.repeat"]').selectOption('loop');
    await form.getByRole('button', { name: 'Save stat block' }).click();
    const wolf = best.getByTestId('bestiary-entry').filter({ hasText: 'Wolf' });
    await expect.poll(() => text(wolf)).toContain(`Moves: ${CANARY} (countdown 3, loop)`);

    // Two wolves, hidden; then one more: Wolf 3, not a second Wolf 1.
    await wolf.getByLabel('How many').fill('2');
    await wolf.getByRole('checkbox', { name: 'hidden' }).check();
    await wolf.getByRole('button', { name: 'Add Wolf as adversaries' }).click();
    await expect.poll(() => text(best.getByTestId('bestiary-note'))).toBe('Wolf 1 to Wolf 2 joined the adversaries, hidden.');
    await wolf.getByLabel('How many').fill('1');
    await wolf.getByRole('button', { name: 'Add Wolf as adversaries' }).click();
    await expect.poll(() => text(best.getByTestId('bestiary-note'))).toBe('Wolf 3 joined the adversaries, hidden.');
    const cards = adversaries.getByTestId('adversary');
    await expect.poll(() => cards.count()).toBe(3);
    expect((await cards.locator(':scope > strong').allTextContents()).sort()).toEqual(['Wolf 1', 'Wolf 2', 'Wolf 3']);

    // Each card shows the move and its countdown's value; an action roll with Fear or Hope ticks a standard countdown by 1 (000).
    const moves = cards.first().getByTestId('adversary-moves');
    await expect.poll(() => text(moves)).toBe(`${CANARY} — leaps on the nearest PC · countdown 3 of 3`);
    await gmSock.command({ type: 'daggerheart.actionRoll', characterId: kira, difficulty: 10 });
    // Both groups started a countdown of their own; each ticked once.
    await expect.poll(() => text(moves)).toBe(`${CANARY} — leaps on the nearest PC · countdown 2 of 3`);

    expect(await axeViolations(gm.p)).toEqual([]);
    expect(await axeViolations(ann.p)).toEqual([]);
    expect(ann.frames.some((f) => f.includes(CANARY) || f.includes('Wolf'))).toBe(false);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });
});
