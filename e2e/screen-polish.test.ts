// Cross-ruleset screen items of issue 20 (ADR 52), played by clicking in real
// Chromium: the target pickers (living foes first, the fallen last, never the
// default), an action form that stays open after its roll and opens fresh on
// a second click (or "Again"); the countdowns panel in the ruleset's words
// with visibility chips in words; the clock counting every fight's rounds and
// a rest's length; the TV showing the clock and the round.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator } from 'playwright-core';
import { night, openAction, roll, screen, startE2e } from './actions-flow.ts';
import { characterNamed, type E2e } from './harness.ts';
import { recordFrames, watchErrors } from './web.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
const contexts: BrowserContext[] = [];
beforeAll(async () => {
  e2e = await startE2e('screen-polish');
});
afterAll(async () => {
  await e2e?.close(contexts);
});

const text = async (l: Locator): Promise<string> => (await l.textContent()) ?? '';
const options = (form: Locator) => form.getByLabel('Target').locator('option').allTextContents();

describe('target pickers and action forms (teams)', () => {
  it('the phone and the GM list the living Bandit 2 first, the ally next and the unconscious Bandit 1 last; a second Attack opens a fresh form; Again readies the next roll', async () => {
    const n = await night(e2e!, 'teams', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: n.seatId });
    await n.gmSock.command({ type: 'character.add', name: 'Bram', kind: 'pc' });
    const kira = n.idOf('Kira');
    const bram = n.idOf('Bram');
    await n.gmSock.command({
      type: 'encounter.start',
      combatants: [
        { id: kira, name: 'Kira', kind: 'pc', side: 'players', characterId: kira },
        { id: bram, name: 'Bram', kind: 'pc', side: 'players', characterId: bram },
        { id: 'b1', name: 'Bandit 1', kind: 'npc', side: 'bandits' },
        { id: 'b2', name: 'Bandit 2', kind: 'npc', side: 'bandits' },
      ],
      params: { teamOrder: ['players', 'bandits'] },
    });
    const spear = { attributes: ['strength'], proficiencies: ['martial'], damage: 1, criticalDamage: 2, criticalThreshold: 20, damageType: 'piercing' };
    const sheet = (name: string, extra: object = {}) => ({ name, attributes: { strength: 6 }, skills: { combat: 6 }, evasion: 5, constitution: 4, maxEndurance: 40, maxHealth: 40, ...extra });
    await n.gmSock.command({ type: 'character.sheet.set', characterId: kira, sheet: sheet('Kira', { proficiencies: { martial: 1 }, items: { spear: { name: 'spear', weapon: spear } } }) });
    await n.gmSock.command({ type: 'character.sheet.set', characterId: bram, sheet: sheet('Bram') });
    // Bandit 1 is already down (unconscious), as after an earlier blow.
    await n.gmSock.command({ type: 'character.sheet.set', characterId: 'b1', sheet: sheet('Bandit 1', { health: 0, conscious: false }) });
    await n.gmSock.command({ type: 'character.sheet.set', characterId: 'b2', sheet: sheet('Bandit 2') });
    await n.gmSock.command({ type: 'foes.reveal', reveal: 'defences' });
    // The players' team chooses who acts: Kira.
    await n.gmSock.command({ type: 'encounter.choose', id: kira });

    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, n.links.seat, true);
    await expect.poll(() => text(ann.p.getByTestId('now-acting'))).toContain('Kira');

    // The phone: living foe, ally, the fallen last; the form starts on Bandit 2 (review 6: it started on the downed Bandit 1).
    const form = await openAction(ann.p, 'Attack');
    expect(await options(form)).toEqual(['Bandit 2', 'Bram (ally)', 'Bandit 1 (unconscious)']);
    expect(await form.getByLabel('Target').inputValue()).toBe('b2');
    // The GM's screen, on Kira's turn: the same order and default.
    const gmForm = await openAction(gm.p, 'Attack');
    expect(await options(gmForm)).toEqual(['Bandit 2', 'Bram (ally)', 'Bandit 1 (unconscious)']);
    expect(await gmForm.getByLabel('Target').inputValue()).toBe('b2');
    // The GM closes their copy with the same button (it has not rolled yet).
    await gm.p.getByTestId('actions-panel').getByRole('button', { name: /^Attack \(/ }).click();
    await expect.poll(() => gm.p.getByTestId('action-form').count()).toBe(0);

    // The phone rolls; the result stays in view.
    const first = await roll(form, 'Roll: Attack');
    expect(first).toContain('Bandit 2');
    await expect.poll(() => ann.p.getByRole('img', { name: 'actions: 2 of 3 left' }).count()).toBe(1);
    // A second Attack click opens a fresh form (no old result), not a closed one (review 6).
    await ann.p.getByTestId('actions-panel').getByRole('button', { name: /^Attack \(/ }).click();
    await expect.poll(() => ann.p.getByTestId('action-result').count()).toBe(0);
    expect(await ann.p.getByTestId('action-form').count()).toBe(1);
    expect(await form.getByLabel('Target').inputValue()).toBe('b2');
    // Roll again, then "Again" in the form itself readies a third roll with the same picks.
    const second = await roll(form, 'Roll: Attack');
    expect(second).toContain('Bandit 2');
    await expect.poll(() => ann.p.getByRole('img', { name: 'actions: 1 of 3 left' }).count()).toBe(1);
    await form.getByRole('button', { name: 'Again', exact: true }).click();
    await expect.poll(() => ann.p.getByTestId('action-result').count()).toBe(0);
    expect(await form.getByLabel('Target').inputValue()).toBe('b2');
    await form.getByRole('button', { name: 'Roll: Attack', exact: true }).waitFor();

    expect(await axeViolations(ann.p)).toEqual([]);
    expect([...gm.errors, ...ann.errors]).toEqual([]);
  });
});

describe('a rolled form rolls again outside a fight (Kleptonomicon Freeplay)', () => {
  it('the GM rolls a Test; a second Test click opens a fresh form; Again keeps the skill for the next roll', async () => {
    const n = await night(e2e!, 'kleptonomicon', 'Ann');
    await n.gmSock.command({ type: 'character.add', name: 'Alice', kind: 'pc', seatId: n.seatId, stats: { edgeSave: 2 } });
    await n.gmSock.command({ type: 'kleptonomicon.startEpisode' });
    await n.gmSock.command({ type: 'kleptonomicon.freeplay' });
    const gm = await screen(e2e!.browser, contexts, n.links.gm, false);
    const panel = gm.p.getByTestId('freeplay-actions');
    const test = panel.getByRole('button', { name: 'Test', exact: true });
    await test.click();
    const form = panel.getByTestId('action-form');
    await form.getByLabel('Skill').fill('Athletics');
    await form.getByRole('button', { name: 'Roll: Test', exact: true }).click();
    await expect.poll(() => text(form.getByTestId('action-result'))).toMatch(/^Alice tests Athletics: Score \d+ \((pass|fail)\)\.$/);
    // Again: the result goes, the skill stays.
    await form.getByRole('button', { name: 'Again', exact: true }).click();
    await expect.poll(() => form.getByTestId('action-result').count()).toBe(0);
    expect(await form.getByLabel('Skill').inputValue()).toBe('Athletics');
    await form.getByRole('button', { name: 'Roll: Test', exact: true }).click();
    await expect.poll(() => form.getByTestId('action-result').count()).toBe(1);
    // The Test button after a roll: a fresh form, still open (review 6: it closed).
    await test.click();
    await expect.poll(() => form.getByTestId('action-result').count()).toBe(0);
    expect(await panel.getByTestId('action-form').count()).toBe(1);
    expect(await form.getByLabel('Skill').inputValue()).toBe('');
    // Before a roll, the button still closes its form.
    await test.click();
    await expect.poll(() => panel.getByTestId('action-form').count()).toBe(0);
    expect(gm.errors).toEqual([]);
  });
});

describe('countdowns, the clock and the TV on an OSR table', () => {
  it('the panel speaks OSR\'s words (no Hope, no action-roll odds), chips in words; fights of 2 and 1 rounds read 3 rounds; a night\'s rest moves the clock; the TV shows clock and round', async () => {
    const t = await e2e!.table('osr', 'Polish night');
    const seat = await e2e!.seat(t, 'Ann');
    const gmSock = await e2e!.socket(t.gmToken);
    await gmSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: seat.seatId, stats: { maxHp: 10, hp: 10, dex: 14, level: 1 } });
    const kira = characterNamed(gmSock, 'Kira');
    const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
    const ann = await screen(e2e!.browser, contexts, seat.link, true);

    // --- The countdowns panel: OSR's kinds only, chips in words.
    const cd = gm.p.locator('.area-countdowns');
    await cd.getByText('New countdown or chase').click();
    expect(await cd.getByLabel('Kind').locator('option').allTextContents()).toEqual(['By hand only', 'Long-term (ticks on rests)']);
    await cd.getByLabel('Name', { exact: true }).fill('Wandering monster');
    await cd.getByLabel('Start').first().fill('3');
    await cd.getByLabel('Players see').selectOption('reveal-on-trigger');
    await cd.getByRole('button', { name: 'Create countdown' }).click();
    const wandering = cd.getByTestId('countdown').filter({ hasText: 'Wandering monster' });
    await expect.poll(() => text(wandering)).toContain('Reveal when it triggers');
    await cd.getByLabel('Name', { exact: true }).fill('The rope frays');
    await cd.getByLabel('Start').first().fill('4');
    await cd.getByLabel('Players see').selectOption('existence');
    await cd.getByRole('button', { name: 'Create countdown' }).click();
    const rope = cd.getByTestId('countdown').filter({ hasText: 'The rope frays' });
    await expect.poll(() => text(rope)).toContain('Name only');
    // By hand: the rope frays one tick (its meter moves on the GM's screen).
    await cd.getByRole('button', { name: 'Tick The rope frays down by one' }).click();
    await cd.getByRole('meter', { name: /The rope frays: 3 of 4/ }).waitFor();
    expect(await text(cd)).not.toMatch(/existence|reveal-on-trigger/);
    // A chase: the outcome buttons in plain words, no odds of "an action roll of +2 vs 12".
    await cd.getByLabel('Chase (a progress and a consequence countdown)').check();
    await cd.getByLabel('Chase name').fill('The thief');
    await cd.getByLabel("Progress countdown (the PCs')").fill('Catch the thief');
    await cd.getByLabel("Consequence countdown (the other side's)").fill('The thief escapes');
    await cd.getByRole('button', { name: 'Create chase' }).click();
    await cd.getByTestId('chase').waitFor();
    const outcomes = cd.getByRole('group', { name: /Tick countdowns from/ });
    expect(await outcomes.getByRole('button').allTextContents()).toEqual(['Critical success', 'Clean success', 'Success at a cost', 'Failure', 'Failure with a complication']);
    expect(await cd.getByText(/Odds assume|with Hope|with Fear/).count()).toBe(0);
    // A clean success: progress 2, consequence 0 (000's table, read neutrally).
    await outcomes.getByRole('button', { name: 'Clean success' }).click();
    await cd.getByRole('meter', { name: /Catch the thief: 6 of 8/ }).waitFor();
    await cd.getByRole('meter', { name: /The thief escapes: 4 of 4/ }).waitFor();

    // --- The TV, from the GM's spectator link.
    await gm.p.getByRole('button', { name: 'Make a spectator link' }).click();
    const tvUrl = await gm.p.getByTestId('tv-link').inputValue();
    const tvCtx = await e2e!.browser.newContext({ viewport: { width: 1600, height: 900 } });
    contexts.push(tvCtx);
    const tv = await tvCtx.newPage();
    const tvFrames = recordFrames(tv);
    const tvErrors = watchErrors(tv);
    await tv.goto(tvUrl);
    await tv.locator('[data-testid=conn-status][data-status=open]').waitFor();
    await expect.poll(() => text(tv.getByTestId('tv-clock'))).toBe('Day 1, 00:00');

    // --- Fight 1: two rounds by the GM's Next button, then End.
    const fight = [
      { name: 'Kira', kind: 'pc', side: 'party', characterId: kira, stats: { dex: 14, hp: 10, maxHp: 10 } },
      { name: 'Goblin', kind: 'npc', side: 'foes', stats: { dex: 8, hp: 5, maxHp: 5 } },
    ];
    await gmSock.command({ type: 'encounter.start', combatants: fight });
    await expect.poll(() => text(tv.getByTestId('tv-round'))).toBe('Round 1');
    const next = gm.p.getByTestId('next-turn');
    for (let i = 0; i < 8 && !(await text(tv.getByTestId('tv-round'))).includes('Round 2'); i++) {
      const before = await text(gm.p.getByTestId('now-acting'));
      await next.click();
      await expect.poll(async () => (await text(gm.p.getByTestId('now-acting'))) !== before || (await text(tv.getByTestId('tv-round'))).includes('Round 2')).toBe(true);
    }
    await expect.poll(() => text(tv.getByTestId('tv-round'))).toBe('Round 2');
    // Round 1 is over: 6 s on the clock, on the TV too.
    await expect.poll(() => text(tv.getByTestId('tv-clock'))).toBe('Day 1, 00:00:06');
    await gm.p.getByTestId('end-encounter').click();
    await expect.poll(() => text(gm.p.getByTestId('clock-time'))).toBe('Day 1, 00:00:12');

    // --- Fight 2: ended in its first round.
    await gmSock.command({ type: 'encounter.start', combatants: fight });
    await expect.poll(() => text(tv.getByTestId('tv-round'))).toBe('Round 1');
    await gm.p.getByTestId('end-encounter').click();
    const clock = gm.p.locator('.area-clock');
    // 2 + 1 rounds: three rounds, 18 s (review 6 read "1 round").
    await expect.poll(() => text(gm.p.getByTestId('clock-elapsed'))).toMatch(/(^|· )3 rounds\b/);
    await expect.poll(() => text(gm.p.getByTestId('clock-time'))).toBe('Day 1, 00:00:18');
    await expect.poll(() => text(tv.getByTestId('tv-clock'))).toBe('Day 1, 00:00:18');
    await expect.poll(() => text(ann.p.getByTestId('clock-elapsed'))).toMatch(/(^|· )3 rounds\b/);

    // --- A safe night's rest: 8 hours on the clock (osr.restHoursPerNight), seen on the TV.
    await clock.getByRole('button', { name: "A safe night's rest" }).click();
    await expect.poll(() => text(gm.p.getByTestId('clock-time'))).toBe('Day 1, 08:00:18');
    await expect.poll(() => text(tv.getByTestId('tv-clock'))).toBe('Day 1, 08:00:18');

    // No GM secret on the TV: the hidden-until-trigger countdown's value and the name-only one's value never show.
    const tvText = await text(tv.locator('body'));
    expect(tvText).not.toMatch(/Wandering monster \d|The rope frays \d/);
    expect(await axeViolations(tv)).toEqual([]);
    expect(tvFrames.length).toBeGreaterThan(0);
    expect([...gm.errors, ...ann.errors, ...tvErrors]).toEqual([]);
  });
});

describe('the clock moves with fights and rests from the screen, in every other ruleset', () => {
  it('teams, the Kleptonomicon and the 36th Way: a fight ended in round 1 takes 6 s and reads 1 round; their countdown kinds; the 36th Way\'s quick rest 10 minutes; Daggerheart\'s kinds and action-roll words, its short rest an hour and long rest 8 hours', async () => {
    const two = [
      { id: 'ann', name: 'Ann', kind: 'pc', side: 'party' },
      { id: 'brute', name: 'Brute', kind: 'npc', side: 'foes' },
    ];
    const setups: { readonly [id: string]: (sock: Awaited<ReturnType<E2e['socket']>>) => Promise<unknown> } = {
      teams: (sock) => sock.command({ type: 'encounter.start', combatants: two, params: { teamOrder: ['party', 'foes'] } }),
      kleptonomicon: async (sock) => {
        await sock.command({ type: 'kleptonomicon.startEpisode' });
        await sock.command({ type: 'kleptonomicon.freeplay' });
        await sock.command({ type: 'encounter.start', combatants: [{ id: 'g', name: 'Guard', kind: 'npc', stats: { creatureType: 'guard' } }, { id: 'ann', name: 'Ann', kind: 'pc' }] });
      },
      '36th-way': (sock) => sock.command({ type: 'encounter.start', combatants: two.map((c, i) => ({ ...c, band: i === 0 ? 'fast' : 'slow' })) }),
    };
    for (const [rulesetId, setup] of Object.entries(setups)) {
      const t = await e2e!.table(rulesetId, `Clock ${rulesetId}`);
      const sock = await e2e!.socket(t.gmToken);
      await setup(sock);
      const gm = await screen(e2e!.browser, contexts, t.links.gm, false);
      await gm.p.getByTestId('end-encounter').click();
      await expect.poll(() => text(gm.p.getByTestId('clock-time')), { message: rulesetId }).toBe('Day 1, 00:00:06');
      await expect.poll(() => text(gm.p.getByTestId('clock-elapsed')), { message: rulesetId }).toMatch(/(^|· )1 round\b/);
      // The countdowns panel offers what this ruleset ticks (ADR 52): by hand only on teams and Kleptonomicon tables (no rests), long-term too with the 36th Way's rests.
      const cd = gm.p.locator('.area-countdowns');
      await cd.getByText('New countdown or chase').click();
      const kinds = await cd.getByLabel('Kind').locator('option').allTextContents();
      expect(kinds, rulesetId).toEqual(rulesetId === '36th-way' ? ['By hand only', 'Long-term (ticks on rests)'] : ['By hand only']);
      if (rulesetId === '36th-way') {
        // 002 "Quick Rest" (setting 36th-way.quickRestMinutes, 10).
        await gm.p.locator('.area-clock').getByRole('button', { name: 'Quick rest', exact: true }).click();
        await expect.poll(() => text(gm.p.getByTestId('clock-time'))).toBe('Day 1, 00:10:06');
      }
      expect(gm.errors, rulesetId).toEqual([]);
      await gm.p.context().close();
    }

    // Daggerheart: no rounds of time (000); its Rest panel moves the clock by the rest's length (review 6: it promised to and did not).
    const dh = await e2e!.table('daggerheart', 'Clock daggerheart');
    const dhSock = await e2e!.socket(dh.gmToken);
    await dhSock.command({ type: 'character.add', name: 'Kira', kind: 'pc', stats: {} });
    const gm = await screen(e2e!.browser, contexts, dh.links.gm, false);
    // Daggerheart's panel keeps every kind, its action roll's words and the odds of an action roll (000 "Countdowns").
    const cd = gm.p.locator('.area-countdowns');
    await cd.getByText('New countdown or chase').click();
    expect(await cd.getByLabel('Kind').locator('option').allTextContents()).toEqual(['Standard (ticks each action roll)', 'Dynamic: progress', 'Dynamic: consequence', 'Long-term (ticks on rests)', 'By hand only']);
    await cd.getByLabel('Name', { exact: true }).fill('The tide');
    await cd.getByLabel('Kind').selectOption('progress');
    await cd.getByLabel('Start').first().fill('6');
    await cd.getByRole('button', { name: 'Create countdown' }).click();
    await cd.getByTestId('countdown-odds').waitFor();
    await cd.getByText('Odds assume a typical action roll, +2 vs difficulty 12, until one is made.').waitFor();
    const outcomes = cd.getByRole('group', { name: /Tick countdowns from/ });
    expect(await outcomes.getByRole('button').allTextContents()).toEqual(['Critical', 'Success with Hope', 'Success with Fear', 'Failure with Hope', 'Failure with Fear']);
    const rest = gm.p.getByTestId('rest');
    await rest.getByRole('button', { name: 'Short rest', exact: true }).click();
    await expect.poll(() => text(gm.p.getByTestId('clock-time'))).toBe('Day 1, 01:00');
    await expect.poll(() => text(gm.p.getByTestId('clock-elapsed'))).toContain('1 short rest');
    await rest.getByRole('button', { name: 'Long rest', exact: true }).click();
    await expect.poll(() => text(gm.p.getByTestId('clock-time'))).toBe('Day 1, 09:00');
    expect(gm.errors).toEqual([]);
  });
});
