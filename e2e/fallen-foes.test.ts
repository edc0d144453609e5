// Review 9 ("Across rulesets"): phones never marked a fallen foe in the turn
// order, though the GM's rows said down or dead. In real Chromium, in OSR (a
// monster character at 0 HP) and The 36th Way (a dead enemy sheet): the GM
// drops the foe with the damage box and the phone's row is marked defeated;
// a hidden foe dropped too never reaches the phone at all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { night, screen, startE2e } from './actions-flow.ts';
import { tswKiraAndOrc } from './fixtures.ts';
import type { E2e } from './harness.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('fallen-foes');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const row = (p: Page, name: string) => p.getByRole('list', { name: 'Turn order' }).getByTestId('combatant').filter({ hasText: name });

async function dropWithDamageBox(gm: Page, name: string, amount: string): Promise<void> {
  await gm.getByLabel(`Amount for ${name}`).fill(amount);
  await gm.getByRole('button', { name: `Damage ${name}` }).click();
}

describe("a fallen foe is marked in the phone's turn order", () => {
  it('OSR: the Goblin at 0 HP is marked defeated on the phone; the hidden Lurker, dropped as well, never shows', async () => {
    const n = await night(e2e!, 'osr', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId, stats: { hp: 8, maxHp: 8, dex: 14 } });
    await n.gmSock.command({ type: 'character.add', name: 'Goblin', kind: 'npc', visibility: 'visible', stats: { hp: 3, maxHp: 3, ac: 13, dex: 10 } });
    await n.gmSock.command({ type: 'character.add', name: 'Lurker', kind: 'npc', visibility: 'hidden', stats: { hp: 2, maxHp: 2, ac: 15, dex: 16 } });
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { id: 'kira', name: 'Kira', kind: 'pc', characterId: n.idOf('Kira') },
        { id: 'gob', name: 'Goblin', kind: 'npc', characterId: n.idOf('Goblin') },
        { id: 'lurk', name: 'Lurker', kind: 'npc', characterId: n.idOf('Lurker'), visibility: 'hidden' },
      ],
    });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);
    await row(ann.p, 'Goblin').waitFor();
    expect(await row(ann.p, 'Goblin').getByTestId('defeated').count()).toBe(0);
    await dropWithDamageBox(gm.p, 'Goblin', '3');
    await dropWithDamageBox(gm.p, 'Lurker', '2');
    await expect.poll(() => row(ann.p, 'Goblin').getByTestId('defeated').count()).toBe(1);
    // The Goblin's AC and the Lurker stay with the GM, in the page and in every frame.
    expect(await ann.p.content()).not.toContain('Lurker');
    expect(ann.frames.join('\n')).not.toContain('Lurker');
    expect(await row(ann.p, 'Goblin').textContent()).not.toContain('13');
    expect(gm.errors).toEqual([]);
    expect(ann.errors).toEqual([]);
  });

  it('The 36th Way: the Orc killed by the damage box is marked defeated on the phone', async () => {
    const n = await night(e2e!, '36th-way', 'Ann');
    await tswKiraAndOrc(n);
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);
    await row(ann.p, 'Orc').waitFor();
    expect(await row(ann.p, 'Orc').getByTestId('defeated').count()).toBe(0);
    await dropWithDamageBox(gm.p, 'Orc', '20');
    await expect.poll(() => row(gm.p, 'Orc').textContent()).toContain('dead');
    await expect.poll(() => row(ann.p, 'Orc').getByTestId('defeated').count()).toBe(1);
    expect(gm.errors).toEqual([]);
    expect(ann.errors).toEqual([]);
  });
});
