// Kleptonomicon actions in real Chromium (004 "Using Abilities",
// "Interrupting Movement"): Alice's phone opens the improvised maneuver (a
// Basic Attack at one extra Disadvantage that adds Slowed, 1 Beat), picks the
// Guard, sets the net Advantage and the defence, sees the exact odds, rolls,
// and sees the result; the Beats left follow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { night, oddsOf, openAction, roll, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('actions-klepto');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

describe('Kleptonomicon actions with Beats, Advantage and odds', () => {
  it('the phone makes an improvised maneuver against the Guard with the odds shown first', async () => {
    const n = await night(e2e!, 'kleptonomicon', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Alice', kind: 'pc', seatId: n.seatId, stats: { edgeSave: 9 } });
    await n.gmSock.command({ type: 'kleptonomicon.startEpisode' });
    await n.gmSock.command({ type: 'kleptonomicon.freeplay' });
    await n.gmSock.command({ type: 'encounter.start', combatants: [{ id: 'alice', name: 'Alice', kind: 'pc', characterId: n.idOf('Alice') }, { id: 'guard', name: 'Guard', kind: 'npc', stats: { creatureType: 'guard', edgeSave: 0 } }] });
    // Whoever the Edge Saves put first, the GM moves on to Alice's turn.
    for (let i = 0; i < 6; i++) {
      const enc = n.gmSock.view().world.ext['encounter'] as unknown as { current: string | null; pending: { options: string[] } | null };
      if (enc.current === 'alice') break;
      await n.gmSock.command(enc.pending !== null ? { type: 'encounter.choose', id: enc.pending.options.includes('alice') ? 'alice' : enc.pending.options[0] } : { type: 'encounter.endTurn' });
    }
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);
    await expect.poll(() => ann.p.getByTestId('actions-panel').getByRole('heading').textContent()).toBe('Alice: actions');

    const form = await openAction(ann.p, 'Basic Attack with an improvised maneuver \\(adds Slowed\\)');
    expect(await form.getByLabel('Target').locator('option').allTextContents()).toEqual(['Guard']);
    // Defence 7, no Edge: the maneuver's own Disadvantage means the lower of two d10ish dice must reach 7 (7/20 each):
    // 49/400 = 12.25%, which the float in the answer shows as 12.2%.
    await oddsOf(form, '12.2% to succeed');
    // One Advantage cancels it: a single die reaching 7, 7/20.
    await form.getByLabel('Advantage (− Disadvantage)').fill('1');
    await oddsOf(form, '35% to succeed');
    const result = await roll(form, 'Roll: Basic Attack with an improvised maneuver (adds Slowed)');
    expect(result).toMatch(/Alice/);
    // One Beat of two is spent.
    await expect.poll(() => ann.p.getByRole('img', { name: 'beats: 1 of 2 left' }).count()).toBe(1);
    expect(gm.errors).toEqual([]);
    expect(ann.errors).toEqual([]);
  });

  it("the GM's maneuver takes the Defense of the target picked and says where the extra Disadvantage comes from; the phone learns no foe's Defense", async () => {
    const n = await night(e2e!, 'kleptonomicon', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Alice', kind: 'pc', seatId: n.seatId, stats: { edgeSave: 9 } });
    await n.gmSock.command({ type: 'character.add', name: 'Bram', kind: 'pc', stats: { edgeSave: 0, defense: 4 } });
    await n.gmSock.command({ type: 'kleptonomicon.startEpisode' });
    await n.gmSock.command({ type: 'kleptonomicon.freeplay' });
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { id: 'alice', name: 'Alice', kind: 'pc', characterId: n.idOf('Alice') },
        { id: 'bram', name: 'Bram', kind: 'pc', characterId: n.idOf('Bram') },
        { id: 'guard', name: 'Guard', kind: 'npc', stats: { creatureType: 'guard', edgeSave: 0, defense: 9 } },
      ],
    });
    for (let i = 0; i < 8; i++) {
      const enc = n.gmSock.view().world.ext['encounter'] as unknown as { current: string | null; pending: { options: string[] } | null };
      if (enc.current === 'alice') break;
      await n.gmSock.command(enc.pending !== null ? { type: 'encounter.choose', id: enc.pending.options.includes('alice') ? 'alice' : enc.pending.options[0] } : { type: 'encounter.endTurn' });
    }
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);
    await expect.poll(() => gm.p.getByTestId('actions-panel').getByRole('heading').textContent()).toBe('Alice: actions');
    const label = 'Basic Attack with an improvised maneuver \\(adds Slowed\\)';
    const form = await openAction(gm.p, label);
    // The foe first, each with its Defense; the box takes the Guard's.
    expect(await form.getByLabel('Target').locator('option').allTextContents()).toEqual(['Guard (Defense 9)', 'Bram (Defense 4)']);
    expect(await form.getByLabel('Defense').inputValue()).toBe('9');
    // One Advantage cancels the maneuver's Disadvantage: one d10ish die must show 9 (2/20) or 10 (1/20): 3/20.
    await form.getByLabel('Advantage (− Disadvantage)').fill('1');
    await oddsOf(form, '15% to succeed');
    expect(await form.getByTestId('action-odds').textContent()).toContain('fails on a Score of 8 or lower; includes 1 Disadvantage for the improvised maneuver');
    // Bram: Defense 4, a die of 4 to 9 (12/20) or 10 (1/20): 13/20.
    await form.getByLabel('Target').selectOption({ label: 'Bram (Defense 4)' });
    expect(await form.getByLabel('Defense').inputValue()).toBe('4');
    await oddsOf(form, '65% to succeed');
    expect(await axeViolations(gm.p)).toEqual([]);

    // Ann's phone sees the Guard but not its Defense (a foe's stats stay with the GM): the box keeps the plain Test's line, 7.
    const phone = await openAction(ann.p, label);
    await expect.poll(() => phone.getByLabel('Target').locator('option').allTextContents()).toEqual(['Guard', 'Bram (Defense 4)']);
    expect(await phone.getByLabel('Defense').inputValue()).toBe('7');
    expect(await ann.p.content()).not.toContain('Defense 9');
    expect(await axeViolations(ann.p)).toEqual([]);
    expect(gm.errors).toEqual([]);
    expect(ann.errors).toEqual([]);
  });
});
