// A foe's numbers stay off the phone until the GM reveals them (ADR 33,
// issue 15), in real Chromium. The GM types an Ogre with AC 27, PD 26, MD 25
// and 89 HP (numbers no other record holds) and rolls initiative: no frame the
// phone receives carries them. The GM then picks "defences" in the top bar:
// the phone's frames carry the AC, PD and MD, and still never the HP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { startE2e } from './actions-flow.ts';
import { foeLine, rollUntilVeskActs, vesksNight } from './foe-lines.ts';
import type { E2e } from './harness.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('foe-stats');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const DEFENCES = ['"ac":27', '"pd":26', '"md":25'];
const HP = ['"maxHp":89', '"hp":89'];

describe("a foe's stats reach the phone only as the GM reveals them", () => {
  it("36th Way: no phone frame carries the Ogre's AC, PD, MD or HP; after the GM reveals defences its AC, PD and MD arrive, its HP never", async () => {
    const { n, gm, ann } = await vesksNight(e2e!, contexts);
    await foeLine(gm.p, { name: 'Ogre', 'quick-ac': '27', 'quick-pd': '26', 'quick-md': '25', hp: '89' });
    await rollUntilVeskActs(gm, ann);
    // The GM's socket holds the Ogre's sheet with its numbers; the phone knows the Ogre by name.
    const ogre = () => Object.values((n.gmSock.view().world.ext['36th-way'] as { sheets: Record<string, { name: string; ac?: number }> }).sheets).find((s) => s.name === 'Ogre');
    await expect.poll(() => ogre()?.ac, { timeout: 15_000 }).toBe(27);
    expect(ann.frames.some((f) => f.includes('Ogre'))).toBe(true);
    const carrying = (keys: readonly string[]) => ann.frames.filter((f) => keys.some((k) => f.includes(k)));
    expect(carrying([...DEFENCES, ...HP])).toEqual([]);
    // The GM reveals defences: the phone's next frames carry them, never the HP.
    await gm.p.locator('#foe-stats').selectOption('defences');
    await expect.poll(() => carrying(DEFENCES).length, { timeout: 15_000 }).toBeGreaterThan(0);
    const revealed = carrying(DEFENCES).join('');
    for (const k of DEFENCES) expect(revealed).toContain(k);
    expect(carrying(HP)).toEqual([]);
    expect(gm.errors).toEqual([]);
    expect(ann.errors).toEqual([]);
  });
});
