// Review 7: Kira's phone read "on deck: Bram" while the GM's screen read "on
// deck: Goblin 1", a visible foe. 001 "Initiative": highest DEX first, the
// same order every round. In real Chromium, the GM ends turns by clicking
// and both screens name the same creature on deck; a hidden foe (DEX 16) is
// passed over on the phone (ADR 55).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { night, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('osr-on-deck');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

/** The whole "Now acting: X · on deck: Y" line. */
const nowActing = async (p: Page): Promise<string> => ((await p.getByTestId('now-acting').first().textContent()) ?? '').replace(/\s+/g, ' ').trim();

describe('OSR: on deck on the phone and the GM screen (ADR 55)', () => {
  it('Lurker (hidden, DEX 16), Kira (14), Goblin 1 (12), Bram (10): the phone names Goblin 1 on deck after Kira, as the GM does', async () => {
    const n = await night(e2e!, 'osr', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId, stats: { maxHp: 9, hp: 9, dex: 14, ac: 12 } });
    await n.gmSock.command({ type: 'character.add', name: 'Bram', kind: 'pc', stats: { maxHp: 9, hp: 9, dex: 10, ac: 12 } });
    await n.gmSock.command({ type: 'character.add', name: 'Goblin 1', kind: 'npc', stats: { maxHp: 5, hp: 5, dex: 12, ac: 10 } });
    await n.gmSock.command({ type: 'character.add', name: 'Lurker', kind: 'npc', stats: { maxHp: 5, hp: 5, dex: 16, ac: 10 } });
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { name: 'Kira', kind: 'pc', side: 'party', characterId: n.idOf('Kira') },
        { name: 'Bram', kind: 'pc', side: 'party', characterId: n.idOf('Bram') },
        { name: 'Goblin 1', kind: 'npc', side: 'foes', characterId: n.idOf('Goblin 1'), visibility: 'visible' },
        { name: 'Lurker', kind: 'npc', side: 'foes', characterId: n.idOf('Lurker'), visibility: 'hidden' },
      ],
    });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);
    // The hidden Lurker acts first: the phone sees nobody acting yet.
    await expect.poll(() => nowActing(gm.p)).toBe('Now acting: Lurker · on deck: Kira');
    await gm.p.getByTestId('next-turn').click();
    await expect.poll(() => nowActing(gm.p)).toBe('Now acting: Kira · on deck: Goblin 1');
    await expect.poll(() => nowActing(ann.p)).toBe('Now acting: Kira · on deck: Goblin 1');
    await gm.p.getByTestId('next-turn').click();
    await expect.poll(() => nowActing(gm.p)).toBe('Now acting: Goblin 1 · on deck: Bram');
    await expect.poll(() => nowActing(ann.p)).toBe('Now acting: Goblin 1 · on deck: Bram');
    expect(await ann.p.getByText('Lurker').count()).toBe(0);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });
});
