// Review 12's Daggerheart findings in real Chromium: the GM's Adversaries panel marks
// a hidden adversary (#12); the hit that marks an Imp's last HP says it is defeated,
// on the GM's log and the phone's (#14); Kira's "Action roll against an adversary"
// lists the defeated Imp marked and last, starting on a standing one (#8), and its
// odds name the four outcomes (#9: +1 vs 11 is 112/144 success, 50/144 with Hope).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { night, openAction, screen, startE2e } from './actions-flow.ts';
import type { E2e } from './harness.ts';
import { percent } from '../packages/web/src/lib/attack.ts';

const text = async (l: Locator): Promise<string> => (await l.textContent()) ?? '';

/** The five outcomes of Hope + Fear + modifier against a difficulty, counted over the 144 pairs (matching dice: critical). */
function outcomes(modifier: number, difficulty: number): { critical: number; sh: number; sf: number; fh: number; ff: number } {
  const o = { critical: 0, sh: 0, sf: 0, fh: 0, ff: 0 };
  for (let h = 1; h <= 12; h++)
    for (let f = 1; f <= 12; f++) {
      if (h === f) o.critical++;
      else if (h + f + modifier >= difficulty) o[h > f ? 'sh' : 'sf']++;
      else o[h > f ? 'fh' : 'ff']++;
    }
  return o;
}

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('dh-review12');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

describe('Daggerheart, review 12', () => {
  it('a hidden adversary is marked on the GM board; a defeated Imp is logged and marked in Kira\'s target list; the odds name four outcomes', async () => {
    const n = await night(e2e!, 'daggerheart', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId, stats: { evasion: 10 } });
    await n.gmSock.command({ type: 'character.sheet.set', characterId: n.idOf('Kira'), sheet: { strength: 1, major: 5, severe: 10 }, patch: true });
    await n.gmSock.command({ type: 'daggerheart.addAdversaries', name: 'Imp', count: 2, difficulty: 11, major: 4, severe: 8, hp: 3, attack: 1, damage: '1d6', visibility: 'visible' });
    await n.gmSock.command({ type: 'daggerheart.addAdversaries', name: 'Lurker', difficulty: 13, major: 6, severe: 11, hp: 3, visibility: 'hidden' });
    await n.gmSock.command({ type: 'foes.reveal', reveal: 'defences' });
    // A standard countdown ticks once on every action roll (000 "Standard Countdown"): its tick is logged (ADR 92).
    await n.gmSock.command({ type: 'countdown.create', name: 'The bridge falls', start: 4 });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const phone = await screen(e2e!.browser, contexts, n.links.seat, true);

    // #12: the Adversaries panel says which one players cannot see.
    const cards = gm.p.getByTestId('adversaries').getByTestId('adversary');
    await expect.poll(() => cards.count()).toBe(3);
    expect(await text(cards.filter({ hasText: 'Lurker' }))).toContain('hidden from players');
    for (const imp of ['Imp 1', 'Imp 2']) expect(await cards.filter({ hasText: imp }).getByTestId('adversary-hidden').count()).toBe(0);

    const spot = gm.p.getByTestId('daggerheart-gm').getByTestId('spotlight');
    await spot.getByRole('button', { name: 'Start a conflict (4)' }).click();
    await expect.poll(() => text(gm.p.getByTestId('next-turn'))).toBe('Next turn: KiraN');

    // #14: 9 is Imp 2's Severe (8) or more: its 3 HP, all it has; both logs say it is defeated.
    const imp2 = n.idOf('Imp 2');
    await n.gmSock.command({ type: 'daggerheart.takeDamage', characterId: imp2, amount: 9 });
    await expect.poll(() => text(gm.p.getByTestId('log'))).toContain('Imp 2 takes 9 damage (severe: thresholds 4/8) and marks 3 HP. Imp 2 is defeated.');
    await expect.poll(() => text(phone.p.getByTestId('log'))).toContain('Imp 2 is defeated.');

    // #8 and #9 on Kira's phone, her turn.
    await gm.p.locator('body').press('n');
    await expect.poll(() => text(phone.p.getByTestId('your-turn'))).toBe('Your turn: Kira');
    const form = await openAction(phone.p, 'Action roll against an adversary');
    const target = form.getByLabel('Target');
    await expect.poll(() => target.locator('option').allTextContents()).toEqual(['Imp 1 (Difficulty 11)', 'Imp 2 (defeated, Difficulty 11)']);
    expect(await target.inputValue()).toBe(n.idOf('Imp 1'));
    await form.getByLabel('Trait').selectOption({ label: 'Strength +1' });
    const o = outcomes(1, 11);
    expect(o).toEqual({ critical: 12, sh: 50, sf: 50, fh: 16, ff: 16 });
    const odds = form.getByTestId('action-odds');
    await expect.poll(() => text(odds.locator('strong'))).toBe(`${percent((o.critical + o.sh + o.sf) / 144)} success · ${percent(o.critical / 144)} critical`);
    expect(await text(odds.locator('strong'))).toBe('77.8% success · 8.3% critical');
    await expect.poll(() => text(odds)).toContain(`success with Hope ${percent(o.sh / 144)} · with Fear ${percent(o.sf / 144)} · failure with Hope ${percent(o.fh / 144)} · with Fear ${percent(o.ff / 144)}`);
    // Rolled: the countdown's tick has its own line, naming the roll's outcome, on both screens.
    await form.getByRole('button', { name: 'Roll: Action roll against an adversary' }).click();
    const rolled = /Kira's Strength roll against Imp 1: Hope \d+ \+ Fear \d+ \+ 1 \(modifier\) = \d+ vs 11: (a critical success|a success with Hope|a success with Fear|a failure with Hope|a failure with Fear)/;
    await expect.poll(() => text(gm.p.getByTestId('log'))).toMatch(rolled);
    const outcome = rolled.exec(await text(gm.p.getByTestId('log')))![1]!;
    for (const p of [gm.p, phone.p]) await expect.poll(() => text(p.getByTestId('log'))).toContain(`The bridge falls: 4 -> 3 (an action roll: ${outcome}).`);
    expect(await phone.p.content()).not.toContain('Lurker');
    expect(phone.frames.filter((f) => f.includes('Lurker'))).toEqual([]);
    expect(gm.errors).toEqual([]);
    expect(phone.errors).toEqual([]);
  });
});
