// Damage and healing between fights in the rulesets that keep HP on a sheet of
// their own (ADR 110), in real Chromium with a GM and a phone: the phone asks
// for healing with no fight running (it was greyed out "during an encounter"),
// the GM approves with one tap, both screens read the sheet's new numbers; the
// GM's own damage box between fights hurts the sheet directly; the next fight's
// tracker starts from those numbers. A teams blow between fights that leaves a PC
// at risk of falling unconscious puts the fight's fortify-or-fall prompt on her
// phone and the GM's screen (ADR 112); so does one while a fight she is not in
// runs, at once, and the fight goes on (ADR 117). While a fight runs, the GM's
// same box reaches those the fight does not hold, under the tracker (ADR 119).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { startE2e, type E2e } from './harness.ts';
import { nowActing } from './web.ts';

let e2e: E2e | undefined;
beforeAll(async () => {
  e2e = await startE2e('between-fights');
});
afterAll(async () => {
  await e2e?.close();
});

const text = async (l: Locator): Promise<string> => (await l.textContent()) ?? '';

describe('between fights, by clicking', () => {
  it("The 36th Way: Kira's phone asks for 4 healing at 10/24 HP; the GM approves (HP 14/24 on both screens), then the GM's box deals a trap's 6 (8/24); the next fight's row reads 8/24", async () => {
    const made = await e2e!.table('36th-way', 'Between fights');
    const seat = await e2e!.seat(made, 'Ana');
    const sock = await e2e!.socket(made.gmToken);
    await sock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: seat.seatId, stats: {} });
    const kira = Object.keys(sock.view().world.characters)[0]!;
    await sock.command({ type: 'character.sheet.set', characterId: kira, sheet: { maxHp: 24, hp: 10 } });
    const gm = await e2e!.open(made.links.gm, { width: 1280, height: 800 });
    const phone = await e2e!.open(seat.link, { width: 360, height: 740 }, { phone: true });

    const ask = phone.p.getByTestId('ask-gm');
    const kinds = ask.getByLabel(/^For /);
    // Only a condition waits for a fight now.
    expect(await kinds.locator('option', { hasText: 'Healing' }).isDisabled()).toBe(false);
    expect(await kinds.locator('option', { hasText: 'A condition' }).isDisabled()).toBe(true);
    await kinds.selectOption({ label: 'Healing' });
    await ask.getByLabel('Hit points to heal').fill('4');
    await ask.getByLabel('A word to the GM (optional)').fill('a potion');
    await ask.getByRole('button', { name: 'Send to the GM' }).click();
    await gm.p.getByTestId('request-queue').getByRole('button', { name: /^Approve Kira \(Ana\)/ }).click();
    // 002: the GM's named healing, no recovery spent: 10 + 4.
    await expect.poll(() => text(phone.p.getByTestId('my-character'))).toContain('HP 14/24');
    const row = gm.p.getByTestId('between-Kira');
    await expect.poll(() => text(row)).toContain('HP 14/24');

    await row.getByLabel('Amount for Kira').fill('6');
    await row.getByRole('button', { name: 'Damage Kira' }).click();
    await expect.poll(() => text(row)).toContain('HP 8/24');
    await expect.poll(() => text(phone.p.getByTestId('my-character'))).toContain('HP 8/24');
    await expect.poll(() => text(phone.p.getByTestId('log'))).toContain('Kira took 6 damage');

    // The fight reads the same sheet: no copy to carry in or out.
    const form = gm.p.getByRole('form', { name: 'Add to the next encounter' });
    await form.getByLabel('Name', { exact: true }).fill('Goblin');
    await form.getByLabel('Kind').selectOption('npc');
    await form.getByLabel('Band').selectOption('fast');
    await form.getByRole('button', { name: 'Add to encounter' }).click();
    await gm.p.getByTestId('builder-rows').getByText('Goblin', { exact: true }).waitFor();
    await gm.p.getByTestId('roll-initiative').click();
    await expect.poll(() => text(gm.p.getByTestId('combatant').filter({ hasText: 'Kira' }))).toContain('HP 8/24');
    await expect.poll(() => gm.p.getByTestId('between-fights').count()).toBe(0);
    expect(gm.errors).toEqual([]);
    expect(phone.errors).toEqual([]);
  }, 240_000);

  it('teams: at endurance 5/12 the phone asks for 3 healing (health is full, so endurance 8/12); the GM\'s box deals 10 nonlethal: endurance 0, health 10/12', async () => {
    const made = await e2e!.table('teams', 'Between fights teams');
    const seat = await e2e!.seat(made, 'Ana');
    const sock = await e2e!.socket(made.gmToken);
    await sock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: seat.seatId, stats: {} });
    const kira = Object.keys(sock.view().world.characters)[0]!;
    await sock.command({ type: 'character.sheet.set', characterId: kira, sheet: { constitution: 4, maxEndurance: 12, maxHealth: 12, endurance: 5 } });
    const gm = await e2e!.open(made.links.gm, { width: 1280, height: 800 });
    const phone = await e2e!.open(seat.link, { width: 360, height: 740 }, { phone: true });

    const ask = phone.p.getByTestId('ask-gm');
    await ask.getByLabel(/^For /).selectOption({ label: 'Healing' });
    await ask.getByLabel('Hit points to heal').fill('3');
    await ask.getByRole('button', { name: 'Send to the GM' }).click();
    await gm.p.getByTestId('request-queue').getByRole('button', { name: /^Approve Kira \(Ana\)/ }).click();
    const row = gm.p.getByTestId('between-Kira');
    await expect.poll(() => text(row)).toContain('Endurance 8/12');
    await expect.poll(() => text(phone.p.getByTestId('my-character'))).toContain('Endurance 8/12');

    // 003 "Damage": 8 to endurance, the other 2 to health (12 -> 10; missing 2 is within constitution 4, so she stays conscious).
    await row.getByLabel('Amount for Kira').fill('10');
    await row.getByLabel('Nonlethal damage to Kira').check();
    await row.getByRole('button', { name: 'Damage Kira' }).click();
    await expect.poll(() => text(row)).toContain('Health 10/12');
    expect(await text(row)).toContain('Endurance 0/12');
    await expect.poll(() => text(phone.p.getByTestId('my-character'))).toContain('Health 10/12');
    expect(gm.errors).toEqual([]);
    expect(phone.errors).toEqual([]);
  }, 240_000);

  it("The 36th Way's quick rest from the phone: Kira (10/24 HP, 8 recoveries of 1d8, the table averaging) asks to spend 2; the GM approves: 10 + 4 + 4 = 18, 6 left; greyed out in a fight", async () => {
    const made = await e2e!.table('36th-way', 'Quick rest from the phone');
    const seat = await e2e!.seat(made, 'Ana');
    const sock = await e2e!.socket(made.gmToken);
    await sock.command({ type: 'table.setting', key: '36th-way.recoveryRoll', value: 'average' });
    await sock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: seat.seatId, stats: {} });
    const kira = Object.keys(sock.view().world.characters)[0]!;
    await sock.command({ type: 'character.sheet.set', characterId: kira, sheet: { maxHp: 24, hp: 10 } });
    const gm = await e2e!.open(made.links.gm, { width: 1280, height: 800 });
    const phone = await e2e!.open(seat.link, { width: 360, height: 740 }, { phone: true });

    const rest = phone.p.getByTestId('ask-recoveries');
    await expect.poll(() => text(rest)).toContain('8 of 8 recoveries left; each heals 1d8.');
    // Past the last one, 002 halves the healing and costs -1 to Volition and defences: said before Send.
    await rest.getByLabel('Recoveries to spend').fill('9');
    await expect.poll(() => text(rest)).toContain('Kira has 8 left: the last 1 heals half');
    await rest.getByLabel('Recoveries to spend').fill('2');
    await rest.getByRole('button', { name: 'Ask the GM' }).click();
    await expect.poll(() => text(phone.p.getByTestId('my-requests'))).toContain('2 recoveries at a quick rest');
    const queue = gm.p.getByTestId('request-queue');
    await expect.poll(() => text(queue)).toContain('2 recoveries at a quick rest');
    // The GM's own quick rest form says so beside Kira's box, so the recoveries are not spent twice.
    await expect.poll(() => text(gm.p.getByTestId('quick-rest-recoveries'))).toContain("Kira's player asks to spend 2: approve it under Players ask and leave this box empty.");
    await queue.getByRole('button', { name: /^Approve Kira \(Ana\)/ }).click();
    // 002 "Recoveries": the average rounds each die down, so a 1d8 recovery heals 4.
    await expect.poll(() => text(phone.p.getByTestId('my-character'))).toContain('HP 18/24');
    await expect.poll(() => text(rest)).toContain('6 of 8 recoveries left');
    await expect.poll(() => text(gm.p.getByTestId('log'))).toContain('spends a Recovery (quick rest)');

    await sock.command({ type: 'encounter.start', combatants: [{ id: kira, name: 'Kira', kind: 'pc', characterId: kira, band: 'fast' }, { id: 'gob', name: 'Goblin', kind: 'npc', band: 'slow', stats: { hp: 5, maxHp: 5 } }] });
    await expect.poll(() => rest.getByLabel('Recoveries to spend').isDisabled()).toBe(true);
    expect(await text(rest)).toContain('Not now: recoveries are spent at a quick rest, once the fight has ended');
    expect(gm.errors).toEqual([]);
    expect(phone.errors).toEqual([]);
  }, 240_000);

  // The text's Boudica (003 "Damage"): strength d6, athletics d4, fortitude +1, constitution 4, 12 endurance and health, 4 stamina.
  const boudica = { attributes: { strength: 6 }, skills: { combat: 6, athletics: 4 }, proficiencies: { fortitude: 1 }, evasion: 5, constitution: 4, maxEndurance: 12, maxHealth: 12, maxStamina: 4, endurance: 5 };

  type Screen = Awaited<ReturnType<E2e['open']>>;
  /** Boudica's phone answers the prompt with Fortify (strength + athletics + fortitude), odds first; both screens' prompts go; how it went. */
  async function fortifyFromPhone(gm: Screen, phone: Screen): Promise<'stays conscious' | 'fails'> {
    const prompt = phone.p.getByTestId('reaction-prompt');
    await prompt.getByRole('radio', { name: 'Fortify (the reaction, 1 stamina)' }).check();
    const form = prompt.getByTestId('action-form');
    await form.getByLabel('Skill').selectOption('athletics');
    await form.getByLabel('Proficiency').selectOption('fortitude');
    // d6 + d4 + 1 >= 5 fails only on 3 of 24 pairs; a luck 20 adds 4 and saves those: 19/20 x 21/24 + 1/20 = 141/160.
    await expect.poll(() => form.getByTestId('action-odds').locator('strong').textContent()).toBe('88.1% to succeed');
    await form.getByRole('button', { name: 'Roll: Fortify', exact: true }).click();
    await expect.poll(() => text(phone.p.getByTestId('log'))).toMatch(/Boudica fortified: \d+ against 5, (stays conscious|fails)\./);
    const line = /Boudica fortified: (\d+) against 5, (stays conscious|fails)\./.exec(await text(phone.p.getByTestId('log')))!;
    // The dice decide; what they decided must agree with the roll's total, the card and the GM's row.
    expect(line[2] === 'stays conscious').toBe(Number(line[1]) >= 5);
    await expect.poll(() => phone.p.getByTestId('reaction-prompt').count()).toBe(0);
    await expect.poll(() => gm.p.getByTestId('reaction-prompt').count()).toBe(0);
    await expect.poll(() => text(phone.p.getByTestId('my-resources'))).toContain('Stamina 3/4');
    return line[2] === 'fails' ? 'fails' : 'stays conscious';
  }

  /** A teams table with Boudica, her seat's PC, on Ana's seat with her sheet kept. */
  async function boudicaSeated(title: string) {
    const made = await e2e!.table('teams', title);
    const seat = await e2e!.seat(made, 'Ana');
    const sock = await e2e!.socket(made.gmToken);
    await sock.command({ type: 'character.add', name: 'Boudica', kind: 'pc', seatId: seat.seatId, stats: {} });
    const id = Object.keys(sock.view().world.characters)[0]!;
    await sock.command({ type: 'character.sheet.set', characterId: id, sheet: boudica });
    return { made, seat, sock, id };
  }

  async function boudicaAtRisk(title: string) {
    const { made, seat } = await boudicaSeated(title);
    const gm = await e2e!.open(made.links.gm, { width: 1280, height: 800 });
    const phone = await e2e!.open(seat.link, { width: 360, height: 740 }, { phone: true });
    // No prompt while nothing waits.
    await expect.poll(() => text(phone.p.getByTestId('my-character'))).toContain('Endurance 5/12');
    expect(await phone.p.getByTestId('reaction-prompt').count()).toBe(0);
    // The GM's damage box between fights: 5 to endurance, 5 to health (12 -> 7); missing 5 is past constitution 4.
    const row = gm.p.getByTestId('between-Boudica');
    await row.getByLabel('Amount for Boudica').fill('10');
    await row.getByRole('button', { name: 'Damage Boudica' }).click();
    await expect.poll(() => text(row)).toContain('Health 7/12');
    const words = 'Boudica is losing consciousness: fortify against 5 or fall unconscious.';
    await expect.poll(() => text(phone.p.getByTestId('reaction-prompt'))).toContain(words);
    await expect.poll(() => text(gm.p.getByTestId('reaction-prompt'))).toContain(words);
    return { gm, phone, row };
  }

  /** A teams table where Brak fights a goblin and Boudica (her seat's PC, sheet kept) is not in the fight. */
  async function fightWithoutBoudica(title: string) {
    const { made, seat, sock, id } = await boudicaSeated(title);
    await sock.command({ type: 'character.add', name: 'Brak', kind: 'pc', stats: {} });
    const brak = Object.keys(sock.view().world.characters).find((c) => c !== id)!;
    await sock.command({ type: 'character.sheet.set', characterId: brak, sheet: { ...boudica, endurance: 12 } });
    await sock.command({ type: 'encounter.start', combatants: [{ id: brak, name: 'Brak', kind: 'pc', side: 'players', characterId: brak }, { id: 'gob', name: 'Goblin', kind: 'npc', side: 'foes' }], params: { teamOrder: ['players', 'foes'] } });
    const gm = await e2e!.open(made.links.gm, { width: 1280, height: 800 });
    const phone = await e2e!.open(seat.link, { width: 360, height: 740 }, { phone: true });
    return { gm, phone };
  }

  it("teams (003 'Damage'): the GM's 10 between fights leave Boudica at endurance 0, health 7, missing 5 past constitution 4; her phone gets the fight's prompt, fortifies at 88.1% (the reaction, 1 stamina), and the sheet and the log say how it went", async () => {
    const { gm, phone, row } = await boudicaAtRisk('Fortify between fights');
    const outcome = await fortifyFromPhone(gm, phone);
    if (outcome === 'fails') {
      await expect.poll(() => text(phone.p.getByTestId('log'))).toContain('Boudica fell unconscious (failed to fortify).');
      await expect.poll(() => text(row)).toContain('unconscious');
      expect(await text(phone.p.getByTestId('my-character'))).toContain('unconscious');
    } else {
      expect(await text(phone.p.getByTestId('my-character'))).not.toContain('unconscious');
      expect(await text(row)).not.toContain('unconscious');
    }
    expect(gm.errors).toEqual([]);
    expect(phone.errors).toEqual([]);
  }, 240_000);

  it('teams: the GM answers for her between fights, as in a fight: Fall unconscious; her phone\'s prompt goes and her card says unconscious, with no stamina spent', async () => {
    const { gm, phone, row } = await boudicaAtRisk('Fall between fights');
    const prompt = gm.p.getByTestId('reaction-prompt');
    await prompt.getByRole('radio', { name: 'Fall unconscious (nothing)' }).check();
    await prompt.getByTestId('action-form').getByRole('button', { name: 'Fall unconscious', exact: true }).click();
    await expect.poll(() => text(phone.p.getByTestId('log'))).toContain('Boudica fell unconscious (chose not to fortify).');
    await expect.poll(() => phone.p.getByTestId('reaction-prompt').count()).toBe(0);
    await expect.poll(() => text(phone.p.getByTestId('my-character'))).toContain('unconscious');
    await expect.poll(() => text(row)).toContain('unconscious');
    expect(await text(phone.p.getByTestId('my-resources'))).toContain('Stamina 4/4');
    expect(gm.errors).toEqual([]);
    expect(phone.errors).toEqual([]);
  }, 240_000);

  it("teams, while a fight runs without her (Brak against a goblin): Boudica's player asks for a blow of 10, the GM approves, and her phone shows the fortify-or-fall prompt at once, not after the fight; she fortifies at 88.1% and the fight goes on, Brak's turn then the goblin's", async () => {
    const { gm, phone } = await fightWithoutBoudica('Outside the fight');
    await expect.poll(() => nowActing(phone.p)).toBe('Now acting: Brak');
    expect(await phone.p.getByTestId('reaction-prompt').count()).toBe(0);

    // 003 "Damage": 5 to endurance, 5 to health (12 -> 7); missing 5 is past constitution 4. The GM's approval deals it.
    const ask = phone.p.getByTestId('ask-gm');
    await ask.getByLabel(/^For /).selectOption({ label: 'Damage' });
    await ask.getByLabel('Damage taken').fill('10');
    await ask.getByRole('button', { name: 'Send to the GM' }).click();
    await gm.p.getByTestId('request-queue').getByRole('button', { name: /^Approve Boudica \(Ana\)/ }).click();
    await expect.poll(() => text(phone.p.getByTestId('my-character'))).toContain('Health 7/12');
    const words = 'Boudica is losing consciousness: fortify against 5 or fall unconscious.';
    await expect.poll(() => text(gm.p.getByTestId('reaction-prompt'))).toContain(words);
    // At once on her phone too, with the fight still running (it showed only after the fight ended).
    const prompt = phone.p.getByTestId('reaction-prompt');
    await expect.poll(() => text(prompt)).toContain(words);
    expect(await nowActing(phone.p)).toBe('Now acting: Brak');

    // The same answer path and odds as between fights.
    await fortifyFromPhone(gm, phone);

    // The fight she was not in is where it was, and goes on.
    expect(await nowActing(gm.p)).toBe('Now acting: Brak');
    expect(await text(gm.p.getByTestId('round'))).toContain('Round 1');
    await gm.p.getByTestId('next-turn').click();
    await expect.poll(() => nowActing(phone.p)).toBe('Now acting: Goblin');
    expect(gm.errors).toEqual([]);
    expect(phone.errors).toEqual([]);
  }, 240_000);

  /** What a running fight is on the GM's screen: whose turn, the round, each row's text (the roster, its numbers and the actions left). */
  async function fightState(gm: Screen): Promise<{ acting: string; round: string; rows: string[]; pips: (string | null)[] }> {
    const rows = gm.p.getByTestId('combatant');
    return { acting: await nowActing(gm.p), round: await text(gm.p.getByTestId('round')), rows: await rows.allTextContents(), pips: await rows.getByRole('img', { name: / left$/ }).evaluateAll((els) => els.map((e) => e.getAttribute('aria-label'))) };
  }

  it("The 36th Way, while Brak fights a goblin without her: the GM's box under the tracker deals Kira (10/24 HP) a trap's 12, so she is dying at -2 HP (002 'Dying and Death': at 0 or below) on the box and her phone; Heal 5 counts up from 0 and brings her back at 5/24; the fight is where it was and goes on", async () => {
    const made = await e2e!.table('36th-way', 'Outside the fight 36th Way');
    const seat = await e2e!.seat(made, 'Ana');
    const sock = await e2e!.socket(made.gmToken);
    await sock.command({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: seat.seatId, stats: {} });
    const kira = Object.keys(sock.view().world.characters)[0]!;
    await sock.command({ type: 'character.sheet.set', characterId: kira, sheet: { maxHp: 24, hp: 10 } });
    await sock.command({ type: 'character.add', name: 'Brak', kind: 'pc', stats: {} });
    const brak = Object.keys(sock.view().world.characters).find((c) => c !== kira)!;
    await sock.command({ type: 'character.sheet.set', characterId: brak, sheet: { maxHp: 30, hp: 30 } });
    await sock.command({ type: 'encounter.start', combatants: [{ id: brak, name: 'Brak', kind: 'pc', characterId: brak, band: 'fast' }, { id: 'gob', name: 'Goblin', kind: 'npc', band: 'slow', stats: { hp: 5, maxHp: 5 } }] });
    const gm = await e2e!.open(made.links.gm, { width: 1280, height: 800 });
    const phone = await e2e!.open(seat.link, { width: 360, height: 740 }, { phone: true });
    await expect.poll(() => nowActing(gm.p)).toBe('Now acting: Brak');

    // Only Kira is offered: Brak's box is on his tracker row, and the rows are the fight's two.
    const box = gm.p.getByTestId('outside-fight');
    const row = box.getByTestId('outside-Kira');
    await expect.poll(() => text(row)).toContain('HP 10/24');
    expect(await box.getByTestId('outside-Brak').count()).toBe(0);
    expect(await gm.p.getByTestId('between-fights').count()).toBe(0);
    const before = await fightState(gm);
    expect(before.rows).toHaveLength(2);
    // Brak's actions left are part of what must not change.
    expect(before.pips.length).toBeGreaterThan(0);

    // 002: direct damage, 10 - 12 = -2 (HP may go below 0): dying.
    await row.getByLabel('Amount for Kira').fill('12');
    await row.getByRole('button', { name: 'Damage Kira' }).click();
    await expect.poll(() => text(row)).toContain('HP -2/24 (dying)');
    await expect.poll(() => text(phone.p.getByTestId('my-character'))).toContain('HP -2/24');
    expect(await text(phone.p.getByTestId('my-character'))).toContain('dying');
    await expect.poll(() => text(phone.p.getByTestId('log'))).toContain('Kira took 12 damage');
    expect(await fightState(gm)).toEqual(before);

    // The GM's named healing counts up from 0 and brings the dying back (002 "Death Saves").
    await row.getByLabel('Amount for Kira').fill('5');
    await row.getByRole('button', { name: 'Heal Kira' }).click();
    await expect.poll(() => text(row)).toContain('HP 5/24');
    expect(await text(row)).not.toContain('dying');
    await expect.poll(() => text(phone.p.getByTestId('my-character'))).toContain('HP 5/24');
    expect(await text(phone.p.getByTestId('my-character'))).not.toContain('dying');

    // A number the box cannot take is said in words, and nothing is sent.
    await row.getByLabel('Amount for Kira').fill('0');
    await row.getByRole('button', { name: 'Damage Kira' }).click();
    await expect.poll(() => text(row)).toContain('Type a whole number from 1 to 100000, then press Damage.');
    expect(await text(row)).toContain('HP 5/24');

    // The fight she is not in is unchanged, and goes on.
    expect(await fightState(gm)).toEqual(before);
    await gm.p.getByTestId('next-turn').click();
    await expect.poll(() => nowActing(phone.p)).toBe('Now acting: Goblin');
    expect(gm.errors).toEqual([]);
    expect(phone.errors).toEqual([]);
  }, 240_000);

  it("teams, while Brak fights a goblin without her: the GM's box under the tracker deals Boudica 10 (endurance 5 first, then health 12 -> 7, missing 5 past constitution 4); the fortify-or-fall prompt is on her phone at once, she fortifies, and the fight is where it was and goes on", async () => {
    const { gm, phone } = await fightWithoutBoudica('Outside the fight teams box');
    await expect.poll(() => nowActing(gm.p)).toBe('Now acting: Brak');

    const box = gm.p.getByTestId('outside-fight');
    const row = box.getByTestId('outside-Boudica');
    await expect.poll(() => text(row)).toContain('Endurance 5/12');
    expect(await box.getByTestId('outside-Brak').count()).toBe(0);
    const before = await fightState(gm);
    expect(before.rows).toHaveLength(2);
    // Brak's actions left are part of what must not change.
    expect(before.pips.length).toBeGreaterThan(0);

    // The box's teams fields, as between fights: the damage type and the nonlethal mark.
    expect(await row.getByLabel('Damage type for Boudica').count()).toBe(1);
    expect(await row.getByLabel('Nonlethal damage to Boudica').count()).toBe(1);
    await row.getByLabel('Amount for Boudica').fill('10');
    await row.getByRole('button', { name: 'Damage Boudica' }).click();
    await expect.poll(() => text(row)).toContain('Health 7/12');
    expect(await text(row)).toContain('Endurance 0/12');
    await expect.poll(() => text(phone.p.getByTestId('my-character'))).toContain('Health 7/12');
    const words = 'Boudica is losing consciousness: fortify against 5 or fall unconscious.';
    await expect.poll(() => text(phone.p.getByTestId('reaction-prompt'))).toContain(words);
    await expect.poll(() => text(gm.p.getByTestId('reaction-prompt'))).toContain(words);
    expect(await fightState(gm)).toEqual(before);

    // The same answer path and odds as between fights; what it decided shows on the GM's box.
    const outcome = await fortifyFromPhone(gm, phone);
    if (outcome === 'fails') await expect.poll(() => text(row)).toContain('unconscious');
    else expect(await text(row)).not.toContain('unconscious');

    // The fight she is not in is unchanged, and goes on.
    expect(await fightState(gm)).toEqual(before);
    await gm.p.getByTestId('next-turn').click();
    await expect.poll(() => nowActing(phone.p)).toBe('Now acting: Goblin');
    expect(gm.errors).toEqual([]);
    expect(phone.errors).toEqual([]);
  }, 240_000);
});
