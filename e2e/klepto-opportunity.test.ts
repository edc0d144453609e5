// The Kleptonomicon's Opportunity Attack in real Chromium (004 "Movement Reactions"; audit 13 item 5): Alice's
// phone moves away from the Guard and says so with "Leaving the reach of"; the GM, who plays the Guard, gets the
// prompt, sees its odds and rolls it for a Beat; then the prompt is gone. The phone never gets the Guard's prompt.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { night, openAction, roll, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('klepto-opportunity');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

describe('Kleptonomicon: an Opportunity Attack when someone leaves Swinging Distance', () => {
  it("Alice's phone leaves the Guard's reach; the GM's screen offers the Guard's Opportunity Attack with its odds, rolls it for a Beat, and it closes", async () => {
    const n = await night(e2e!, 'kleptonomicon', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Alice', kind: 'pc', seatId: n.seatId, stats: { edgeSave: 9, defense: 7 } });
    await n.gmSock.command({ type: 'kleptonomicon.startEpisode' });
    await n.gmSock.command({ type: 'kleptonomicon.freeplay' });
    await n.gmSock.command({ type: 'encounter.start', combatants: [{ id: 'alice', name: 'Alice', kind: 'pc', characterId: n.idOf('Alice') }, { id: 'guard', name: 'Guard', kind: 'npc', stats: { creatureType: 'guard', edgeSave: 0, defense: 7, hp: 30, attackModifier: 2 } }] });
    for (let i = 0; i < 6; i++) {
      const enc = n.gmSock.view().world.ext['encounter'] as unknown as { current: string | null; pending: { options: string[] } | null };
      if (enc.current === 'alice') break;
      await n.gmSock.command(enc.pending !== null ? { type: 'encounter.choose', id: enc.pending.options.includes('alice') ? 'alice' : enc.pending.options[0] } : { type: 'encounter.endTurn' });
    }
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);
    await expect.poll(() => ann.p.getByTestId('actions-panel').getByRole('heading').textContent()).toBe('Alice: actions');

    const move = await openAction(ann.p, 'Move');
    const leaving = move.getByLabel('Leaving the reach of');
    expect(await leaving.locator('option').allTextContents()).toEqual(['nobody', 'Guard']);
    expect(await leaving.inputValue()).toBe('');
    await leaving.selectOption({ label: 'Guard' });
    const moved = await roll(move, 'Move');
    expect(moved).toContain('Alice moves 1u by walk');
    expect(moved).toContain('Opportunity Attack open to Guard.');

    // The Guard is the GM's: the prompt is on the GM's screen, never on Alice's phone.
    const prompt = gm.p.getByTestId('reaction-prompt');
    await expect.poll(() => prompt.locator('strong').first().textContent()).toBe("Alice left Guard's Swinging Distance: Guard may make an Opportunity Attack until Alice's turn ends.");
    expect(await ann.p.getByTestId('reaction-prompt').count()).toBe(0);
    await prompt.getByRole('radio', { name: /^Opportunity Attack on Alice/ }).check();
    const form = prompt.getByTestId('action-form');
    // d10ish + 2 against Defense 7 (a Score of 7 or more): a die of 5 or more, 5 to 9 at 2/20 each and the 10 at 1/20 = 55%.
    await expect.poll(() => form.getByTestId('action-odds').locator('strong').textContent()).toBe('55% to hit');
    await form.getByRole('button', { name: 'Roll: Opportunity Attack on Alice', exact: true }).click();
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toMatch(/Guard's Basic Attack on Alice: d10 \d+/);
    await expect.poll(() => gm.p.getByTestId('reaction-prompt').count()).toBe(0);
    const economy = n.gmSock.view().world.ext['encounter'] as unknown as { economy: { guard?: { spent: { [pool: string]: number } } } };
    expect(economy.economy.guard?.spent['beats']).toBe(1);
    expect(gm.errors).toEqual([]);
    expect(ann.errors).toEqual([]);
  });
});
