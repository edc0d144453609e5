// An attack's reach in real Chromium (004 "Distance"; ADR 124): Alice's phone (390 px wide) picks how far the
// Guard is; her melee Basic Attack at Throwing Distance answers "out of reach" for odds and is refused in words,
// her ranged one is rolled and logged with the distance. The GM's panel shows Fire Bolt's own reach (Throwing),
// refuses it at Shooting Distance and rolls it at Spitting Distance with odds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { night, oddsOf, openAction, roll, screen, startE2e, untilTurnOf } from './actions-flow.ts';
import type { E2e } from './harness.ts';
import { horizontalOverflow } from './web.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('klepto-reach');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const SIX = ['not said (no reach check)', 'Swinging Distance (1u)', 'Spearing Distance (2u)', 'Spitting Distance (4u)', 'Throwing Distance (8u)', 'Shooting Distance (16u)', 'Seeing Distance (past 16u)'];

describe('Kleptonomicon: an attack reaches as far as its Distance', () => {
  it('the phone and the GM say how far the target is: one out of reach is refused on screen, one in reach is logged with its distance', async () => {
    const n = await night(e2e!, 'kleptonomicon', 'Ann');
    const bolt = { id: 'fire-bolt', name: 'Fire Bolt', time: 'beat', attack: true, modifier: 6, damage: '1', reach: 'throwing' };
    await n.gmSock.command({ type: 'character.add', name: 'Alice', kind: 'pc', seatId: n.seatId, stats: { edgeSave: 9, attackModifier: 20, attackDamage: '1', abilities: [bolt] } });
    await n.gmSock.command({ type: 'kleptonomicon.startEpisode' });
    await n.gmSock.command({ type: 'kleptonomicon.freeplay' });
    await n.gmSock.command({ type: 'encounter.start', combatants: [{ id: 'alice', name: 'Alice', kind: 'pc', characterId: n.idOf('Alice') }, { id: 'guard', name: 'Guard', kind: 'npc', stats: { creatureType: 'guard', edgeSave: 0, defense: 7, hp: 30 } }] });
    await untilTurnOf(n.gmSock, 'alice');
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);
    await expect.poll(() => ann.p.getByTestId('actions-panel').getByRole('heading').textContent()).toBe('Alice: actions');

    // The phone: each Basic Attack with its reach in words, the six distances by name and "not said".
    const form = await openAction(ann.p, 'Basic Attack');
    expect(await form.getByLabel('Basic Attack', { exact: true }).locator('option').allTextContents()).toEqual(['Melee, reaches Swinging Distance (1u)', 'Ranged, reaches Shooting Distance (16u)', 'Magic, reaches Throwing Distance (8u)']);
    const at = form.getByLabel('How far away');
    expect(await at.locator('option').allTextContents()).toEqual(SIX);
    expect(await at.inputValue()).toBe('');
    await at.selectOption({ label: 'Throwing Distance (8u)' });
    await expect.poll(async () => (await form.getByTestId('action-odds').textContent())?.toLowerCase()).toContain('out of reach: guard is at throwing distance (8u); a melee attack reaches swinging distance (1u)');
    await form.getByRole('button', { name: 'Roll: Basic Attack', exact: true }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toContain('Guard is at Throwing Distance (8u); a melee attack reaches Swinging Distance (1u)');
    expect(await form.getByTestId('action-result').count()).toBe(0);
    await expect.poll(() => ann.p.getByRole('img', { name: 'beats: 2 of 2 left' }).count()).toBe(1);
    // Nothing spills sideways at 390 px with the two new pickers.
    expect(await horizontalOverflow(ann.p)).toBe(0);

    await form.getByLabel('Basic Attack', { exact: true }).selectOption({ label: 'Ranged, reaches Shooting Distance (16u)' });
    const result = await roll(form, 'Roll: Basic Attack');
    expect(result).toMatch(/Alice's Basic Attack on Guard at Throwing Distance \(8u\): d10 \d+/);
    await expect.poll(() => gm.p.getByTestId('log').textContent()).toContain("Alice's Basic Attack on Guard at Throwing Distance (8u)");

    // The GM: Fire Bolt shows its own reach; at Shooting Distance it has no chance to give and is refused.
    await expect.poll(() => gm.p.getByTestId('actions-panel').getByRole('heading').textContent()).toBe('Alice: actions');
    const strike = await openAction(gm.p, 'Fire Bolt');
    expect(await strike.getByLabel('Reach').textContent()).toBe('Throwing Distance (8u)');
    const gmAt = strike.getByLabel('How far away');
    expect(await gmAt.locator('option').allTextContents()).toEqual(SIX);
    await gmAt.selectOption({ label: 'Shooting Distance (16u)' });
    await expect.poll(async () => (await strike.getByTestId('action-odds').textContent())?.toLowerCase()).toContain('out of reach: guard is at shooting distance (16u); fire bolt reaches throwing distance (8u)');
    await strike.getByRole('button', { name: 'Roll: Fire Bolt', exact: true }).click();
    await expect.poll(() => strike.getByRole('alert').textContent()).toContain('Guard is at Shooting Distance (16u); Fire Bolt reaches Throwing Distance (8u)');
    // In reach, the odds are the plain chance: +6 against Defense 7 misses only on a critical 0 (1/20): 95%.
    await gmAt.selectOption({ label: 'Spitting Distance (4u)' });
    await oddsOf(strike, '95% to hit');
    const hit = await roll(strike, 'Roll: Fire Bolt');
    expect(hit).toMatch(/Alice's Fire Bolt on Guard at Spitting Distance \(4u\): d10 \d+/);
    await expect.poll(() => ann.p.getByTestId('log').textContent()).toContain("Alice's Fire Bolt on Guard at Spitting Distance (4u)");
    expect(gm.errors).toEqual([]);
    expect(ann.errors).toEqual([]);
  });
});
