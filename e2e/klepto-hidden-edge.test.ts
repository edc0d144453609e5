// A fail against a hidden group's Edge Save, in real Chromium (004 "Turn Order";
// review 12 #5): Alice's phone shows where she acts but no Score (the failing 3 read
// "before the foes (Edge Save 3)") and no Edge Save line ("none against a foe group in
// view" told players an unseen group exists); the GM reads both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { night, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('klepto-hidden-edge');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

describe('Kleptonomicon: Edge Saves against a hidden group', () => {
  it("the phone learns neither the failing Score nor that a hidden group exists; the GM's log keeps it", async () => {
    const n = await night(e2e!, 'kleptonomicon', 'Ann');
    // Edge Save -20: every Score is 6 or lower, so Alice fails against the first group, the Lurker's
    // (groups go by their best Edge Save: the Lurker's +5 before the Guard's 0).
    await n.gmSock.command({ type: 'character.add', name: 'Alice', kind: 'pc', seatId: n.seatId, stats: { edgeSave: -20 } });
    await n.gmSock.command({ type: 'kleptonomicon.startEpisode' });
    await n.gmSock.command({ type: 'kleptonomicon.freeplay' });
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { id: 'alice', name: 'Alice', kind: 'pc', characterId: n.idOf('Alice') },
        { id: 'lurker', name: 'Lurker', kind: 'npc', visibility: 'hidden', stats: { creatureType: 'horror', edgeSave: 5, defense: 13, hp: 10 } },
        { id: 'guard', name: 'Guard', kind: 'npc', stats: { creatureType: 'guard', edgeSave: 0, defense: 11, hp: 6 } },
      ],
    });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);

    const gmRow = gm.p.getByTestId('combatant').filter({ hasText: 'Alice' });
    await expect.poll(() => gmRow.textContent()).toMatch(/after foe group 1 \(Edge Save -?\d+\)/);
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toMatch(/Edge Saves for Alice \(a Score of 7 or more passes\): against foe group 1 \(Lurker\) rolled .*failed\. Alice acts after foe group 1\./);

    const annRow = ann.p.getByTestId('combatant').filter({ hasText: 'Alice' });
    await expect.poll(() => annRow.textContent()).toContain('before the foes');
    expect(await annRow.textContent()).not.toContain('Edge Save');
    // Both combatants the phone may see are listed, Alice before the Guard; no Lurker anywhere.
    expect(await ann.p.getByTestId('combatant').count()).toBe(2);
    const annLog = (await ann.p.getByTestId('log').textContent()) ?? '';
    expect(annLog).not.toContain('Edge Saves for Alice');
    expect(annLog).not.toMatch(/in view|Lurker|horror/);
    expect(ann.frames.join('\n')).not.toMatch(/Lurker|horror/);
    expect(ann.errors).toEqual([]);
  });
});
