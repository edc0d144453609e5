// Undo and redo say what they take back, with the creatures' names (review 8),
// on an OSR GM screen in Chromium: the damage box's "3 damage to Goblin 2",
// "end of Bram's turn" after N (the Previous turn button's title too), the
// redo after an undo; the player's phone has no undo and never reads the
// hidden foe's name. The words are the engine's (the view's undoWords).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { night, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('undo-words');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator) => ((await l.textContent()) ?? '').replace(/\s+/g, ' ').trim();
const HIDDEN = 'Zq-lurker';

describe('undo and redo in words', () => {
  it('name the damage, the turn and the redo on the GM screen; the phone has none and no hidden name', async () => {
    const n = await night(e2e!, 'osr', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Bram', kind: 'pc', seatId: n.seatId, stats: { maxHp: 9, hp: 9, dex: 18, ac: 12 } });
    await n.gmSock.command({ type: 'character.add', name: 'Goblin 2', kind: 'npc', stats: { maxHp: 20, hp: 20, dex: 8, ac: 10 } });
    await n.gmSock.command({ type: 'character.add', name: HIDDEN, kind: 'npc', visibility: 'hidden', stats: { maxHp: 20, hp: 20, dex: 3, ac: 10 } });
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { name: 'Bram', kind: 'pc', side: 'party', characterId: n.idOf('Bram') },
        { name: 'Goblin 2', kind: 'npc', side: 'foes', characterId: n.idOf('Goblin 2') },
        { name: HIDDEN, kind: 'npc', side: 'foes', characterId: n.idOf(HIDDEN), visibility: 'hidden' },
      ],
    });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);
    const undo = gm.p.getByTestId('undo');
    const redo = gm.p.getByTestId('redo');

    // The damage box on Goblin 2: the undo names the amount and the creature, in its text, title and accessible name.
    await gm.p.getByLabel('Amount for Goblin 2').fill('3');
    await gm.p.getByRole('button', { name: 'Damage Goblin 2' }).click();
    await expect.poll(() => text(undo)).toBe('↶ Undo: 3 damage to Goblin 2');
    expect(await undo.getAttribute('title')).toBe('Undo: 3 damage to Goblin 2');
    expect(await gm.p.getByRole('button', { name: 'Undo 3 damage to Goblin 2', exact: true }).count()).toBe(1);

    // The hidden foe takes damage too: the GM's undo names it.
    await gm.p.getByLabel(`Amount for ${HIDDEN}`).fill('2');
    await gm.p.getByRole('button', { name: `Damage ${HIDDEN}` }).click();
    await expect.poll(() => text(undo)).toBe(`↶ Undo: 2 damage to ${HIDDEN}`);

    // N ends Bram's turn: the undo and the Previous turn button say whose.
    await gm.p.getByTestId('now-acting').click();
    await gm.p.keyboard.press('n');
    await expect.poll(() => text(undo)).toBe("↶ Undo: end of Bram's turn");
    expect(await gm.p.getByTestId('prev-turn').getAttribute('title')).toBe("Takes back the end of Bram's turn");

    // Undo it: the redo names what it brings back, and the undo the step before.
    await undo.click();
    await expect.poll(() => text(redo)).toBe("↷ Redo: end of Bram's turn");
    expect(await redo.getAttribute('aria-label')).toBe("Redo end of Bram's turn");
    await expect.poll(() => text(undo)).toBe(`↶ Undo: 2 damage to ${HIDDEN}`);

    // The phone: no undo of the GM's steps, and no frame ever carried the hidden foe's name.
    expect(await ann.p.getByTestId('undo').count()).toBe(0);
    expect(ann.frames.join('\n')).not.toContain(HIDDEN);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  }, 180_000);
});
