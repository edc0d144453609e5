// A Daggerheart adversary attacks from its stat block, by clicking (issue 20,
// ADR 40): the GM adds a Bandit (Attack +1, 1d8+2) from the bestiary, starts
// a conflict, gives it the spotlight and opens its Attack: the odds against
// Kira's Evasion 10 (a natural 9+: 60%, 5% critical) come before the roll;
// the log has the d20 and the damage, which Kira's thresholds (5 / 10) turn
// into marked HP. Ann's phone reads the d20 and the outcome, never the +1 or
// the dice; the Bandit, added with "hidden" unticked, is named (review 6); the
// Fear pool does not move.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { oddsOf, openAction, roll, screen } from './actions-flow.ts';
import { daggerheartSeat, startE2e, type E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('foe-attack-dh');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator): Promise<string> => (await l.textContent()) ?? '';

describe("a Daggerheart adversary's attack from its stat block", () => {
  it('the Bandit in the spotlight attacks Kira: odds first, the roll logged, HP marked through her thresholds', async () => {
    const { t, seat, gmSock, kira } = await daggerheartSeat(e2e!, 'Ambush night');
    await gmSock.command({ type: 'character.sheet.set', characterId: kira, sheet: { evasion: 10, major: 5, severe: 10 }, patch: true });
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, seat.link, true);

    // The stat block by the bestiary's form, then one Bandit from it.
    const best = gm.p.getByTestId('bestiary');
    await best.getByText('New stat block').click();
    const form = best.getByTestId('bestiary-new');
    await form.getByLabel('Name', { exact: true }).fill('Bandit');
    for (const [label, v] of [[/^HP/, '4'], [/^Difficulty/, '12'], [/^Major/, '6'], [/^Severe/, '11'], [/^Attack/, '1'], [/^Damage/, '1d8+2']] as const) await form.getByLabel(label).fill(v);
    await form.getByRole('button', { name: 'Save stat block' }).click();
    const bandit = best.getByTestId('bestiary-entry').filter({ hasText: 'Bandit' });
    await expect.poll(() => text(bandit)).toContain('Damage 1d8+2');
    await bandit.getByRole('button', { name: 'Add Bandit as adversaries' }).click();
    await expect.poll(() => text(best.getByTestId('bestiary-note'))).toBe('Bandit joined the adversaries.');

    // A conflict; the GM gives the Bandit the spotlight, and the GM reveals nothing.
    const spot = gm.p.getByTestId('spotlight');
    await spot.getByRole('button', { name: 'Start a conflict (2)' }).click();
    await spot.getByRole('button', { name: 'Spotlight Bandit' }).click();
    await expect.poll(() => text(spot.getByTestId('spotlight-holder'))).toBe('Bandit');
    const fear = () => (gmSock.view().world.ext['daggerheart'] as { fear?: number } | undefined)?.fear ?? 0;
    const fearBefore = fear();

    // Attack: +1 against Evasion 10 needs a natural 9 (12 of 20), a natural 20 crits (1 of 20).
    const attack = await openAction(gm.p, 'Attack');
    await expect.poll(() => attack.getByLabel('Target').locator('option').allTextContents()).toEqual(['Kira (Evasion 10)']);
    await oddsOf(attack, '60% to hit · 5% critical');
    expect(await text(attack.getByTestId('action-odds'))).toContain('d20 +1 vs Evasion 10 · 1d8+2 damage');
    const result = await roll(attack, 'Roll: Attack');
    const m = /Bandit attacked Kira: d20 (\d+) \+ 1 = (\d+) vs Evasion 10, (a hit|a critical hit|a miss)/.exec(result);
    expect(m, result).not.toBeNull();
    const natural = Number(m![1]);
    expect(m![3]).toBe(natural === 20 ? 'a critical hit' : natural + 1 >= 10 ? 'a hit' : 'a miss');
    if (m![3] !== 'a miss') {
      // 1d8+2 is 3 to 10 (a critical adds 8): Major (5) marks 2 HP, Severe (10) 3, below 5 one.
      const dealt = Number(/= (\d+) damage/.exec(result)![1]);
      expect(dealt).toBeGreaterThanOrEqual(3);
      expect(dealt).toBeLessThanOrEqual(m![3] === 'a hit' ? 10 : 18);
      const marks = dealt >= 10 ? 3 : dealt >= 5 ? 2 : 1;
      await expect.poll(() => gmSock.view().world.characters[kira]!.stats['hpMarked']).toBe(marks);
      // One hit, one line (ADR 81): what it did to Kira ends the attack's line, on her phone too.
      const word = marks === 3 ? 'severe' : marks === 2 ? 'major' : 'minor';
      await expect.poll(() => text(ann.p.getByTestId('log'))).toContain(`Bandit attacked Kira: d20 ${natural} vs Evasion 10, ${m![3]} for ${dealt} damage: ${word} (thresholds 5/10), marks ${marks} HP.`);
      expect(await text(gm.p.getByTestId('log'))).not.toContain(`Kira takes ${dealt} damage`);
    } else {
      await expect.poll(() => text(ann.p.getByTestId('log'))).toContain(`Bandit attacked Kira: d20 ${natural} vs Evasion 10, a miss.`);
    }
    expect(fear()).toBe(fearBefore);
    // The phone never reads the Bandit's modifier, its dice or the total.
    expect(await text(ann.p.getByTestId('log'))).not.toContain('1d8+2');
    expect(ann.frames.filter((f) => f.includes('1d8+2') || f.includes('"damageDice"') || f.includes('"attack":1'))).toEqual([]);

    expect(await axeViolations(gm.p)).toEqual([]);
    expect(await axeViolations(ann.p)).toEqual([]);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });
});
