// The GM regroups the Kleptonomicon's foes before the Edge Saves, in real Chromium (004 "Turn Order": the GM may
// regroup the NPCs into two to four groups; audit 13 item 11): each foe row has a group picker, by type until
// picked, the groups in order are shown before anything is rolled, and the start rolls against those groups.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { screen, startE2e } from './actions-flow.ts';
import { builderLine, type E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('klepto-edge-groups');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const lined = async (p: Page) => (await p.getByTestId('builder-rows').locator('li strong').allTextContents()).map((s) => s.trim());

describe('Kleptonomicon: Edge Save groups picked in the builder', () => {
  it('the Bat joins Rat 1 in group 1 and Rat 2 moves to group 2: shown before the roll, and the Edge Saves go against those groups', async () => {
    const t = await e2e!.table('kleptonomicon', 'Groups night');
    const sock = await e2e!.socket(t.gmToken);
    await sock.command({ type: 'character.add', name: 'Alice', kind: 'pc', stats: { edgeSave: 1 } });
    await sock.command({ type: 'kleptonomicon.startEpisode' });
    await sock.command({ type: 'kleptonomicon.freeplay' });
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    await expect.poll(() => lined(gm.p)).toEqual(['Alice']);
    await builderLine(gm.p, { name: 'Rat x2', hp: '4' });
    await builderLine(gm.p, { name: 'Wolf', hp: '6' });
    await builderLine(gm.p, { name: 'Bat', hp: '3' });
    await expect.poll(() => lined(gm.p)).toEqual(['Alice', 'Rat 1', 'Rat 2', 'Wolf', 'Bat']);
    const groups = gm.p.getByTestId('edge-groups');
    // By type (all Edge Save 0, in the order added): the Rats, the Wolf, the Bat.
    await expect.poll(() => groups.textContent()).toBe('Edge Save groups, in order: 1. Rat 1, Rat 2; 2. Wolf; 3. Bat');
    const bat = gm.p.getByLabel("Bat's Edge Save group");
    expect(await bat.locator('option:checked').textContent()).toBe('by type (group 3)');
    // A PC has no group to pick.
    expect(await gm.p.getByLabel("Alice's Edge Save group").count()).toBe(0);
    await bat.selectOption('1');
    await gm.p.getByLabel("Rat 2's Edge Save group").selectOption('2');
    await expect.poll(() => groups.textContent()).toBe('Edge Save groups, in order: 1. Rat 1, Bat; 2. Rat 2, Wolf');
    // The picks survive a reload with the line-up.
    await gm.p.reload();
    await gm.p.locator('[data-testid=conn-status][data-status=open]').waitFor();
    await expect.poll(() => gm.p.getByTestId('edge-groups').textContent()).toBe('Edge Save groups, in order: 1. Rat 1, Bat; 2. Rat 2, Wolf');
    expect(await axeViolations(gm.p)).toEqual([]);

    await gm.p.getByTestId('roll-initiative').click();
    const placed = () => {
      const enc = sock.view().world.ext['encounter'] as { combatants: Record<string, { name: string; placement: unknown }> } | undefined;
      return Object.fromEntries(Object.values(enc?.combatants ?? {}).map((c) => [c.name, c.placement]));
    };
    await expect.poll(() => placed()['Bat']).toEqual({ group: 0 });
    expect(placed()).toMatchObject({ 'Rat 1': { group: 0 }, Bat: { group: 0 }, 'Rat 2': { group: 1 }, Wolf: { group: 1 } });
    // Alice's Edge Saves are rolled against the groups as picked, and the GM's log names them.
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toMatch(/against foe group 1 \(Rat 1, Bat\) rolled/);
    expect(gm.errors).toEqual([]);
  });
});
