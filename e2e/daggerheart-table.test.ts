// Daggerheart at the table, by clicking (issue 20, review 6, ADR 50): the
// player chooses on the phone whether to mark an Armor Slot when hit, seeing
// what it changes first, and the GM answers for a PC without a phone; an
// adversary added unhidden is named on the phone; rests show their Fear dice,
// and long-term countdown ticks (on rests and by hand) write log lines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { screen } from './actions-flow.ts';
import { daggerheartSeat, startE2e, type E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('dh-table');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator): Promise<string> => (await l.textContent()) ?? '';

describe('Daggerheart at the table', () => {
  it("marking Armor is the player's choice: 15 damage is severe (3 HP), an Armor Slot makes it major (2 HP); the GM answers a second hit", async () => {
    const { t, seat, gmSock, kira } = await daggerheartSeat(e2e!, 'Armor night');
    await gmSock.command({ type: 'character.sheet.set', characterId: kira, sheet: { evasion: 10, major: 7, severe: 14, hpMax: 6, armorMax: 2 }, patch: true });
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, seat.link, true);
    const stat = (key: string) => gmSock.view().world.characters[kira]!.stats[key];

    // The GM types 15 into Kira's damage box: nothing is marked until her player chooses.
    const party = gm.p.getByTestId('party-trackers');
    await party.getByLabel('Damage to Kira').fill('15');
    await party.getByRole('button', { name: 'Damage' }).click();
    const phoneHit = ann.p.getByTestId('hit-choice');
    await expect.poll(() => text(phoneHit.getByTestId('hit-summary'))).toBe('15 damage: severe (3 HP); mark an Armor Slot -> major (2 HP)');
    expect(stat('hpMarked')).toBeUndefined();
    await expect.poll(() => text(gm.p.getByTestId('log'))).toContain('Kira is hit for 15 damage: Kira chooses whether to mark an Armor Slot.');

    // Ann marks an Armor Slot on her phone: 2 HP and 1 Armor marked, on both screens.
    await phoneHit.getByRole('button', { name: 'Mark an Armor Slot (2 of 2 left): major (2 HP)' }).click();
    await expect.poll(() => party.getByTestId('slots-Kira HP').getAttribute('aria-valuenow')).toBe('2');
    await expect.poll(() => party.getByTestId('slots-Kira Armor').getAttribute('aria-valuenow')).toBe('1');
    await expect.poll(() => ann.p.getByTestId('slots-Kira Armor').getAttribute('aria-valuenow')).toBe('1');
    await expect.poll(() => phoneHit.count()).toBe(0);
    await expect.poll(() => text(ann.p.getByTestId('log'))).toContain('Kira takes 15 damage (severe: thresholds 7/14, an Armor Slot makes it major) and marks 2 HP.');

    // A second hit, 9 (major): the GM answers for her from the GM screen, taking it unarmoured.
    await party.getByLabel('Damage to Kira').fill('9');
    await party.getByRole('button', { name: 'Damage' }).click();
    const gmHit = gm.p.getByTestId('hit-choice');
    await expect.poll(() => text(gmHit.getByTestId('hit-summary'))).toBe('9 damage: major (2 HP); mark an Armor Slot -> minor (1 HP)');
    await expect.poll(() => text(ann.p.getByTestId('hit-summary'))).toBe('9 damage: major (2 HP); mark an Armor Slot -> minor (1 HP)');
    await gmHit.getByRole('button', { name: 'Take it: major (2 HP)' }).click();
    await expect.poll(() => party.getByTestId('slots-Kira HP').getAttribute('aria-valuenow')).toBe('4');
    await expect.poll(() => ann.p.getByTestId('hit-choice').count()).toBe(0);
    expect(stat('armorMarked')).toBe(1);

    expect(await axeViolations(gm.p)).toEqual([]);
    expect(await axeViolations(ann.p)).toEqual([]);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });

  it('an adversary added with "hidden" unticked is named on the phone, and a hit on it reaches the players\' log without its numbers', async () => {
    const { t, seat, gmSock } = await daggerheartSeat(e2e!, 'Bandit night');
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, seat.link, true);
    const best = gm.p.getByTestId('bestiary');
    await best.getByText('New stat block').click();
    const form = best.getByTestId('bestiary-new');
    await form.getByLabel('Name', { exact: true }).fill('Bandit');
    for (const [label, v] of [[/^HP/, '5'], [/^Difficulty/, '12'], [/^Major/, '7'], [/^Severe/, '12']] as const) await form.getByLabel(label).fill(v);
    await form.getByRole('button', { name: 'Save stat block' }).click();
    const entry = best.getByTestId('bestiary-entry').filter({ hasText: 'Bandit' });
    await expect.poll(() => text(entry)).toContain('Severe threshold 12');
    await entry.getByRole('button', { name: 'Add Bandit as adversaries' }).click();
    await expect.poll(() => text(best.getByTestId('bestiary-note'))).toBe('Bandit joined the adversaries.');
    const bandit = () => Object.values(gmSock.view().world.characters).find((c) => c.name === 'Bandit');
    await expect.poll(() => bandit()?.visibility).toBe('visible');

    // A conflict: the phone's encounter names the Bandit (no "Unknown").
    await gm.p.getByTestId('spotlight').getByRole('button', { name: 'Start a conflict (2)' }).click();
    const rows = () => ann.p.getByTestId('combatant').allTextContents();
    await expect.poll(async () => (await rows()).some((r) => r.includes('Bandit'))).toBe(true);
    expect((await rows()).some((r) => r.includes('Unknown'))).toBe(false);

    // Kira's blow lands: the GM types 9 into the Bandit's damage box; 9 against 7 / 12 is major.
    const adv = gm.p.getByTestId('adversaries');
    await adv.getByLabel('Damage to Bandit').fill('9');
    await adv.getByRole('button', { name: 'Damage' }).click();
    await expect.poll(() => text(ann.p.getByTestId('log'))).toContain('Bandit takes 9 damage and marks HP.');
    expect(await text(ann.p.getByTestId('log'))).not.toContain('7/12');
    expect(ann.frames.filter((f) => f.includes('"major":7') || f.includes('thresholds 7/12'))).toEqual([]);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });

  it("a rest's Fear shows its 1d4, a long-term countdown's rest tick and a tick by hand write log lines at the countdown's visibility", async () => {
    const { t, seat, gmSock } = await daggerheartSeat(e2e!, 'Rest night');
    // Setup before the pages open: one countdown the players see whole, one they know only by name.
    await gmSock.command({ type: 'countdown.create', name: 'The Duke returns', kind: 'longTerm', start: 6, visibility: 'visible' });
    await gmSock.command({ type: 'countdown.create', name: 'The cult stirs', kind: 'longTerm', start: 8, visibility: 'existence' });
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, seat.link, true);
    const log = () => text(ann.p.getByTestId('log'));

    // A short rest: each long-term countdown ticks once (000 "Advancing a Long-Term Countdown"), and the GM gains 1d4 Fear.
    await gm.p.getByTestId('rest').getByRole('button', { name: 'Short rest' }).click();
    await expect.poll(log).toContain('The Duke returns: 6 -> 5 (a short rest).');
    await expect.poll(log).toContain('The cult stirs ticks (a short rest).');
    const fear = /The GM gains Fear \(short rest: 1d4 \[(\d)\]\) \(0 -> (\d+)\)\./.exec(await log());
    expect(fear, await log()).not.toBeNull();
    expect(Number(fear![2])).toBe(Number(fear![1]));
    expect(await log()).not.toContain('8 -> 7');
    await expect.poll(() => text(gm.p.getByTestId('log'))).toContain('The cult stirs: 8 -> 7 (a short rest).');

    // A long rest adds the PCs to the 1d4 (one PC here) and ticks twice.
    await gm.p.getByTestId('rest').getByRole('button', { name: 'Long rest' }).click();
    await expect.poll(log).toContain('The Duke returns: 5 -> 3 (a long rest).');
    await expect.poll(log).toMatch(/The GM gains Fear \(long rest: 1d4 \[\d\] \+ 1 PC\) \(\d+ -> \d+\)\./);

    // The GM ticks the Duke by hand: a line says so.
    await gm.p.getByRole('button', { name: 'Tick The Duke returns down by one' }).click();
    await expect.poll(log).toContain('The Duke returns: 3 -> 2 (by hand).');
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });
});
